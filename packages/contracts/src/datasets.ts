import { z } from 'zod';
import { safeName } from './names.js';
import { DESCRIPTION_MAX, NAME_MAX } from './constants.js';
import { abilitiesSchema, ownerSchema, privacySchema } from './common.js';
import type { ReportEntry } from './dataset-layout/types.js';

export const DATASET_STATUSES = ['Initiating', 'Uploading', 'Loading', 'Ready', 'Retrying', 'Failed', 'No Version', 'No Images'] as const;
export const DATASET_TASKS_UI = ['detect', 'classify', 'segment', 'semantic-segment', 'pose'] as const;

export const datasetStatsSchema = z.object({
  classes: z.array(z.string()),
  classCount: z.number(),
  images: z.number(),
  train: z.number(),
  val: z.number(),
  test: z.number(),
});

export type DatasetSummary = z.infer<typeof datasetStatsSchema>;

/**
 * Per split stats in the JSON shape of ultralytics' `HUBDatasetStats.get_json()` (snake_case as
 * there, minus the per-image labels): objects per class and images per class.
 */
export const splitStatsSchema = z.object({
  /** Objects (for classify: images) in total and per class id. */
  instance_stats: z.object({ total: z.number(), per_class: z.array(z.number()) }),
  /** Images in total, images with no objects, and per class id the images holding at least one. */
  image_stats: z.object({ total: z.number(), unlabelled: z.number(), per_class: z.array(z.number()) }),
});
export type SplitStats = z.infer<typeof splitStatsSchema>;
/** `HUBDatasetStats` JSON: a split with no images is null, as there. */
export const hubDatasetStatsSchema = z.object({
  nc: z.number(),
  names: z.array(z.string()),
  train: splitStatsSchema.nullable(),
  val: splitStatsSchema.nullable(),
  test: splitStatsSchema.nullable(),
});
export type HubDatasetStats = z.infer<typeof hubDatasetStatsSchema>;
/** What processing stores for a dataset: the spec's summary (`dataset.stats`) and the per split stats (`dataset.splitStats`). */
export const storedDatasetStatsSchema = z.object({ summary: datasetStatsSchema, hub: hubDatasetStatsSchema });
export type StoredDatasetStats = z.infer<typeof storedDatasetStatsSchema>;

/** One finding of the processing report (the same shape as `ReportEntry` of dataset-layout, which stays zod-free). */
export const reportEntrySchema: z.ZodType<ReportEntry> = z.object({
  file: z.string().optional(),
  line: z.number().optional(),
  code: z.string(),
  message: z.string(),
});
export const datasetReportSchema = z.object({
  errors: z.array(reportEntrySchema),
  warnings: z.array(reportEntrySchema),
  errorCount: z.number(),
  warningCount: z.number(),
  omittedErrors: z.number(),
  omittedWarnings: z.number(),
  countsByCode: z.record(z.string(), z.number()),
  /** Image + label pairs left out, one reason each (ADR 0029); absent in reports stored before the rule. */
  leftOut: z.array(reportEntrySchema.and(z.object({ image: z.string() }))).optional(),
  leftOutCount: z.number().optional(),
  omittedLeftOut: z.number().optional(),
});
/** The processing report: listed findings (capped), totals, and counts per code over everything found. */
export type DatasetReport = z.infer<typeof datasetReportSchema>;

export const datasetSchema = z.object({
  id: z.string(),
  slug: z.string(),
  dates: z.object({
    created: z.string(),
    updated: z.string(),
    archived: z.string().nullable(),
    deleted: z.string().nullable(),
    uploaded: z.string().nullable(),
    processed: z.string().nullable(),
    failed: z.string().nullable(),
  }),
  owner: ownerSchema,
  meta: z.object({ name: z.string(), description: z.string(), privacy: privacySchema }),
  status: z.string(),
  schemaVersion: z.literal(2),
  provider: z.enum(['hub', 'roboflow']),
  task: z.string(),
  storage: z.object({ path: z.string().nullable(), filename: z.string().nullable(), bytes: z.number() }),
  image: z.string().nullable(),
  stats: datasetStatsSchema.nullable(),
  splitStats: hubDatasetStatsSchema.nullable(),
  uploadJob: z.string().nullable(),
  error: z.string().nullable(),
  report: z.object({ errorCount: z.number(), warningCount: z.number() }).nullable(),
  team: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  roboflow: z.object({ type: z.string(), totalVersions: z.number() }).nullable(),
  previews: z.array(z.string()),
  progress: z.object({ phase: z.string(), done: z.number(), total: z.number() }).nullable(),
  abilities: abilitiesSchema,
});
export type Dataset = z.infer<typeof datasetSchema>;

export const createDatasetBody = z.object({
  meta: z
    .object({
      name: safeName(z.string().trim().min(1).max(NAME_MAX)),
      description: z.string().trim().max(DESCRIPTION_MAX).optional(),
      privacy: privacySchema.optional(),
    })
    .optional(),
  name: safeName(z.string().trim().min(1).max(NAME_MAX)).optional(),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
  task: z.enum(DATASET_TASKS_UI).default('detect'),
});
export const updateDatasetBody = z.object({
  meta: z
    .object({ name: safeName(z.string().trim().min(1).max(NAME_MAX)), description: z.string().trim().max(DESCRIPTION_MAX) })
    .partial()
    .optional(),
  task: z.enum(DATASET_TASKS_UI).optional(),
});

export const uploadTokenBody = z.object({ path: z.string().min(1).max(500), bytes: z.number().int().min(1) });
export const uploadTokenResponse = z.object({ token: z.string(), storageRemaining: z.number(), uploadUrl: z.string() });

export const datasetImageSchema = z.object({
  id: z.string(),
  split: z.string(),
  name: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  className: z.string().nullable(),
  labels: z.array(z.array(z.number())),
  thumbUrl: z.string().nullable(),
  url: z.string(),
  /** Revision of the image's labels (ADR 0037): a label PUT names the one it read. */
  labelRevision: z.number().optional(),
  /** Hex SHA-256 of the image bytes (null for images processed before ADR 0037). */
  sha256: z.string().nullable().optional(),
});
export type DatasetImage = z.infer<typeof datasetImageSchema>;
/**
 * A page of a dataset's images; `nextCursor` continues it (keyset paging, opaque), null at the end.
 * `total` is the working state's images (of the split) from the dataset's statistics; null only on a
 * later page of a dataset not processed yet (its first page counts them).
 */
export const datasetImagesPageSchema = z.object({
  results: z.array(datasetImageSchema),
  total: z.number().nullable(),
  nextCursor: z.string().nullable().optional(),
});
export type DatasetImagesPage = z.infer<typeof datasetImagesPageSchema>;

/** `GET /v1/users/me/storage`: bytes of the plan, used and left. */
export const storageUsageSchema = z.object({ limit: z.number(), used: z.number(), remaining: z.number() });
export type StorageUsage = z.infer<typeof storageUsageSchema>;

/** An upload as the server knows it: its offset grows as chunks arrive, also from other tabs or before a reload. */
export const serverUploadSchema = z.object({
  id: z.string(),
  datasetId: z.string().nullable(),
  filename: z.string(),
  bytes: z.number(),
  offset: z.number(),
  status: z.string(),
  /** When the last bytes arrived: an upload still 'uploading' but quiet for UPLOAD_QUIET_MS waits for its file. */
  updated: z.string().optional(),
  error: z.string().nullable(),
  created: z.string(),
});
export type ServerUpload = z.infer<typeof serverUploadSchema>;
/** No byte for this long: no browser is sending the file any more (a tab closed mid-upload). */
export const UPLOAD_QUIET_MS = 5_000;
/** An upload that stopped before its last byte and that no browser is sending: it waits for the file to be chosen again. */
export const isWaitingForFile = (u: Pick<ServerUpload, 'status' | 'offset' | 'bytes' | 'updated' | 'created'>, now = Date.now()): boolean =>
  u.status === 'uploading' && u.offset < u.bytes && now - Date.parse(u.updated ?? u.created) >= UPLOAD_QUIET_MS;
export const processingJobSchema = z.object({
  datasetId: z.string(),
  name: z.string(),
  status: z.string(),
  /** What the processing job last reported; other keys a job may add pass through. */
  progress: z.object({ phase: z.string().optional(), done: z.number().optional(), total: z.number().optional() }).catchall(z.unknown()).nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
});
export type ProcessingJob = z.infer<typeof processingJobSchema>;
/** `GET /v1/active-jobs`: the caller's uploads in flight and dataset processing. */
export const activeJobsSchema = z.object({ uploads: z.array(serverUploadSchema), processing: z.array(processingJobSchema) });
export type ActiveJobs = z.infer<typeof activeJobsSchema>;

// ---- edits of a dataset's working state (ADR 0037) ---------------------------------------------------

const SPLIT = z.enum(['train', 'val', 'test']);
const imageIds = z.array(z.string().min(1).max(40)).min(1).max(1000);
/** A class named by its index in the class list or by its name. */
const classRef = z.union([z.number().int().min(0).max(100_000), z.string().trim().min(1).max(200)]);
const className = z.string().trim().min(1).max(200);

export const moveImagesBody = z.object({ imageIds, split: SPLIT });
export const copyImagesBody = z.object({ imageIds, split: SPLIT.optional(), datasetId: z.string().min(1).max(40).optional() });
export const deleteImagesBody = z.object({ imageIds });
export const renameClassBody = z.object({ from: classRef, to: className });
export const mergeClassesBody = z.object({ from: z.array(classRef).min(1).max(1000), into: classRef });
export const deleteClassBody = z.object({ class: classRef, labels: z.literal('remove').default('remove') });
/** What an edit answers: the dataset's new edit sequence number, its class list and what changed. */
export const datasetEditResultSchema = z.object({
  seq: z.number(),
  classes: z.array(z.string()),
  counts: z.record(z.string(), z.number()),
  /** Stable ids of images the edit created (add, copy). */
  imageIds: z.array(z.string()).optional(),
});
export type DatasetEditResult = z.infer<typeof datasetEditResultSchema>;
export const addImagesResultSchema = datasetEditResultSchema.extend({ added: z.number(), report: datasetReportSchema });

/** One image's labels with their revision (the labelling editor reads and writes these). */
export const imageLabelsSchema = z.object({
  imageId: z.string(),
  revision: z.number(),
  labels: z.array(z.array(z.number())),
  className: z.string().nullable(),
});
export type ImageLabels = z.infer<typeof imageLabelsSchema>;
export const putImageLabelsBody = z.object({
  revision: z.number().int().min(0),
  labels: z.array(z.array(z.number().finite()).min(1).max(10_000)).max(10_000),
  className: z.string().trim().min(1).max(200).nullable().optional(),
});
