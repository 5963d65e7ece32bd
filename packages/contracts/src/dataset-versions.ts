import { z } from 'zod';

/**
 * Dataset versions (ADR 0038): "Save version" freezes the working state of a dataset as version N
 * (images, labels, splits, class list, stats) with a note; the working state stays editable. A
 * version is downloaded as a YOLO zip (same content → same bytes), served to the training clients
 * (`ul://owner/datasets/slug` is the latest version, `slug:vN` version N), compared with another
 * version or the working state (diff) and deleted to the trash.
 */
export const VERSION_NOTE_MAX = 1000;

export const saveVersionBody = z.object({ note: z.string().max(VERSION_NOTE_MAX).optional() });
export type SaveVersionBody = z.infer<typeof saveVersionBody>;

const splitCounts = z.object({ train: z.number(), val: z.number(), test: z.number() });

export const datasetVersionSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  number: z.number().int(),
  note: z.string(),
  classes: z.array(z.string()),
  images: z.number().int(),
  splits: splitCounts,
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), username: z.string().nullable() }).nullable(),
  /** Models trained on this version (their number; the list is in the detail). */
  models: z.number().int(),
});
export type DatasetVersion = z.infer<typeof datasetVersionSchema>;

export const versionModelSchema = z.object({ id: z.string(), name: z.string(), projectId: z.string().nullable() });
export const datasetVersionDetailSchema = datasetVersionSchema.extend({
  /** The models trained on it that the caller may read. */
  modelList: z.array(versionModelSchema),
  /** Per split images per class name, the class histogram of the version. */
  histogram: z.record(z.string(), z.number()),
});
export type DatasetVersionDetail = z.infer<typeof datasetVersionDetailSchema>;

/**
 * An image as a diff names it: its stable id (across revisions), file name and split; and what a tile draws: its
 * signed preview and original links (they resolve the image's newest revision, so an image that left the working
 * state still shows), its size and the labels of the side it is listed on (YOLO rows; classify: the class name).
 */
export const diffImageSchema = z.object({
  id: z.string(),
  name: z.string(),
  split: z.string(),
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  labels: z.array(z.array(z.number())).optional(),
  className: z.string().nullable().optional(),
  thumbUrl: z.string().nullable().optional(),
  url: z.string().optional(),
});
export type DiffImage = z.infer<typeof diffImageSchema>;

export const datasetDiffQuery = z.object({
  from: z.coerce.number().int().min(1),
  to: z.union([z.literal('working'), z.coerce.number().int().min(1)]).default('working'),
});

/**
 * `GET /v1/datasets/:id/diff?from=<n>&to=<n|working>`: what changed between two versions (or a
 * version and the working state), computed from hashes and labels only, never image bytes.
 */
export const datasetDiffSchema = z.object({
  from: z.number().int(),
  to: z.union([z.number().int(), z.literal('working')]),
  added: z.array(diffImageSchema),
  removed: z.array(diffImageSchema),
  moved: z.array(z.object({ image: diffImageSchema, fromSplit: z.string(), toSplit: z.string() })),
  /** Label rows before and after (YOLO rows, class indexes of each side's class list); classify: the class name. */
  labelsChanged: z.array(
    z.object({
      image: diffImageSchema,
      before: z.array(z.array(z.number())),
      after: z.array(z.array(z.number())),
      classBefore: z.string().nullable(),
      classAfter: z.string().nullable(),
    }),
  ),
  classesRenamed: z.array(z.object({ index: z.number().int(), from: z.string(), to: z.string() })),
  classesAdded: z.array(z.string()),
  classesRemoved: z.array(z.string()),
  /** Objects (classify: images) per class name on each side. */
  histogram: z.object({ from: z.record(z.string(), z.number()), to: z.record(z.string(), z.number()) }),
});
export type DatasetDiff = z.infer<typeof datasetDiffSchema>;

/**
 * The dataset segment of `ul://owner/datasets/<segment>`, as the clients pass it unchanged: `slug`
 * (the latest version) or `slug:vN` (version N). Null when the segment is neither.
 */
export function parseDatasetSegment(segment: string): { slug: string; version: number | null } | null {
  const m = /^([^:/?#]+?)(?::v(\d{1,9}))?$/.exec(segment);
  if (!m) return null;
  return { slug: m[1]!, version: m[2] ? Number(m[2]) : null };
}
