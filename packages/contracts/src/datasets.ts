import { z } from 'zod';
import { abilitiesSchema, ownerSchema, privacySchema } from './common.js';

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

export const reportEntrySchema = z.object({ file: z.string().optional(), line: z.number().optional(), code: z.string(), message: z.string() });
export const datasetReportSchema = z.object({
  errors: z.array(reportEntrySchema),
  warnings: z.array(reportEntrySchema),
  errorCount: z.number(),
  warningCount: z.number(),
  omittedErrors: z.number(),
  omittedWarnings: z.number(),
  countsByCode: z.record(z.string(), z.number()),
});
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
  /** HUBDatasetStats-like per split stats: {train:{images:{total,unlabelled,perClass}, instances:{total,perClass}}, ...}. */
  splitStats: z.record(z.string(), z.unknown()).nullable(),
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
  meta: z.object({ name: z.string().trim().min(1).max(100), description: z.string().trim().max(1000).optional(), privacy: privacySchema.optional() }).optional(),
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(1000).optional(),
  task: z.enum(DATASET_TASKS_UI).default('detect'),
});
export const updateDatasetBody = z.object({
  meta: z.object({ name: z.string().trim().min(1).max(100), description: z.string().trim().max(1000) }).partial().optional(),
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
});
export type DatasetImage = z.infer<typeof datasetImageSchema>;
