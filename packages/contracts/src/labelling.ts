import { z } from 'zod';
import { datasetImageSchema } from './datasets.js';

/**
 * Model-assisted labelling (ADR 0039): a model pre-labels a dataset's images as a job with progress;
 * its proposals are kept as suggestions, apart from the labels, until someone accepts (they become
 * labels through the dataset's label write) or rejects them.
 */
export const PRELABEL_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type PrelabelStatus = (typeof PRELABEL_STATUSES)[number];
export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
/** Images one request may name (the current image, a selection); a whole split is named by `split`. */
export const PRELABEL_MAX_IMAGE_IDS = 1000;
/**
 * Review filters of the image list (ADR 0039); `disagree` takes an evaluation's label mistakes, `changed-since`
 * the images whose working revision is newer than version `since` (ADR 0038: rev_from > that version's seq).
 */
export const REVIEW_FILTERS = ['unlabelled', 'suggested', 'changed-since', 'disagree'] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];
export const REVIEW_PAGE_MAX = 200;

const id = z.string().min(1).max(40);
const split = z.enum(['train', 'val', 'test']);
const className = z.string().min(1).max(200);

export const prelabelBodySchema = z
  .object({
    modelId: id,
    /** A whole split, or `imageIds` (the current image, a selection); neither: every image of the dataset. */
    split: split.optional(),
    imageIds: z.array(id).min(1).max(PRELABEL_MAX_IMAGE_IDS).optional(),
    /** Proposals under this confidence are dropped (the predict API's `conf`). */
    conf: z.number().min(0.01).max(1).default(0.25),
    /**
     * Model class name → dataset class name, or null to leave that model class out. Model classes not
     * named here go to the dataset class of the same name (case and surrounding spaces ignored), or are
     * left out when the dataset has none.
     */
    classMap: z.record(className, className.nullable()).default({}),
  })
  .strict()
  .refine((b) => !(b.split && b.imageIds), { message: 'Name a split or images, not both', path: ['imageIds'] });
export type PrelabelBody = z.input<typeof prelabelBodySchema>;

export const prelabelJobSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  model: z.object({ id: z.string(), name: z.string() }),
  split: split.nullable(),
  status: z.enum(PRELABEL_STATUSES),
  conf: z.number(),
  /** Model class id → dataset class id as this job applies it (null: left out). */
  classMap: z.array(z.object({ modelClass: z.number().int(), name: z.string(), datasetClass: z.number().int().nullable() })),
  done: z.number().int(),
  total: z.number().int(),
  /** Images that got at least one proposal, and the proposals made. */
  suggested: z.number().int(),
  boxes: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PrelabelJob = z.infer<typeof prelabelJobSchema>;

/** One model proposal: a YOLO label row in the dataset's classes (normalised as labels are) and its confidence. */
export const suggestionSchema = z.object({
  id: z.string(),
  imageId: z.string(),
  jobId: z.string(),
  modelId: z.string(),
  /** YOLO rows as labels are stored (`[cls, x, y, w, h]` detect, `[cls, x1, y1, ...]` segment, pose with keypoints). */
  labels: z.array(z.array(z.number())),
  /** Confidence of each row of `labels`. */
  conf: z.array(z.number()),
  /** Classify: the proposed class name. */
  className: z.string().nullable(),
  status: z.enum(SUGGESTION_STATUSES),
  createdAt: z.string(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;
export const imageSuggestionsSchema = z.object({ imageId: z.string(), suggestions: z.array(suggestionSchema) });

/** Accept or reject: some images, or every pending suggestion (of a split); `indices`: rows of one image's suggestion. */
export const suggestionActionBodySchema = z
  .object({
    imageIds: z.array(id).min(1).max(PRELABEL_MAX_IMAGE_IDS).optional(),
    all: z.literal(true).optional(),
    split: split.optional(),
    indices: z.array(z.number().int().min(0)).min(1).max(10_000).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.imageIds) !== Boolean(b.all), { message: 'Name images (imageIds) or all: true', path: ['imageIds'] })
  .refine((b) => !b.indices || b.imageIds?.length === 1, { message: 'Rows (indices) are chosen on one image', path: ['indices'] });
export type SuggestionActionBody = z.infer<typeof suggestionActionBodySchema>;
export const suggestionActionResultSchema = z.object({
  /** Images whose labels changed (accept) or whose suggestions were dropped (reject). */
  images: z.number().int(),
  /** Label rows accepted or rejected. */
  rows: z.number().int(),
  /** Per dataset class name, label rows in the working state after the action. */
  counts: z.record(z.string(), z.number().int()),
});
export type SuggestionActionResult = z.infer<typeof suggestionActionResultSchema>;

export const reviewQuerySchema = z.object({
  filter: z.enum(REVIEW_FILTERS),
  split: split.optional(),
  /** disagree: the evaluation whose label mistakes name the images. */
  evaluationId: id.optional(),
  /** changed-since: the version number (of this dataset) the images changed after. */
  since: z.coerce.number().int().min(1).max(1_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(REVIEW_PAGE_MAX).default(50),
  cursor: z.string().max(400).optional(),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;
export const reviewPageSchema = z.object({
  results: z.array(datasetImageSchema.extend({ suggestions: z.number().int() })),
  nextCursor: z.string().nullable(),
});
export type ReviewPage = z.infer<typeof reviewPageSchema>;

/** Per dataset class name, label rows in the working state. */
export const classCountsSchema = z.object({ counts: z.record(z.string(), z.number().int()), images: z.number().int(), unlabelled: z.number().int() });
export type ClassCounts = z.infer<typeof classCountsSchema>;
