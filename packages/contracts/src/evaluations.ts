import { z } from 'zod';
import { datasetImageSchema } from './datasets.js';
import { evalResultSchema } from './evaluation.js';

/**
 * Evaluations (ADR 0035): a model's ONNX file run in the server on a dataset split and scored like
 * ultralytics `val`. The job's requests and answers live here; the scores themselves (per class
 * precision, recall, mAP, confusion matrix, curves) are the metrics engine's result types.
 */
export const EVALUATION_SPLITS = ['train', 'val', 'test'] as const;
export const EVALUATION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
/** fp: a prediction no label matches; fn: a label no prediction finds; wrong: a box found with the wrong class. */
export const EVALUATION_MISTAKE_KINDS = ['fp', 'fn', 'wrong'] as const;
export type EvaluationMistakeKind = (typeof EVALUATION_MISTAKE_KINDS)[number];
/** Mistakes kept per evaluation, kind and class: the most confident ones (the images that matter). */
export const EVALUATION_MISTAKES_PER_CLASS = 50;
/** A finished evaluation is final: only these may still change. */
export const evaluationActive = (status: EvaluationStatus) => status === 'queued' || status === 'running';

export const createEvaluationBodySchema = z
  .object({
    datasetId: z.string().min(1).max(40),
    split: z.enum(EVALUATION_SPLITS),
  })
  .strict();
export type CreateEvaluationBody = z.infer<typeof createEvaluationBodySchema>;

/** How the dataset's classes met the model's, by name (case and surrounding spaces ignored). */
export const evaluationClassMapSchema = z.object({
  /** Dataset class id → model class id, for every name both have. */
  pairs: z.array(z.object({ datasetClass: z.number().int(), modelClass: z.number().int(), name: z.string() })),
  /** Dataset classes the model does not know: their labels are left out of the scores. */
  unmappedDataset: z.array(z.string()),
  /** Model classes the dataset does not have: their predictions are left out of the scores. */
  unmappedModel: z.array(z.string()),
  /** Labels left out because their class is unmapped. */
  skippedLabels: z.number().int(),
});
export type EvaluationClassMap = z.infer<typeof evaluationClassMapSchema>;

export const evaluationSchema = z.object({
  id: z.string(),
  modelId: z.string(),
  dataset: z.object({ id: z.string(), name: z.string() }),
  split: z.enum(EVALUATION_SPLITS),
  task: z.string(),
  status: z.enum(EVALUATION_STATUSES),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  error: z.string().nullable(),
  classMap: evaluationClassMapSchema.nullable(),
  /** Model class names, by model class id (the class space of the result). */
  classNames: z.array(z.string()),
  /** The metrics engine's result (detection or classification): only in the answer about one evaluation, once completed. */
  result: evalResultSchema.nullable(),
  /** The headline number of a completed evaluation (box mAP50, or top-1 for classify), also in lists. */
  headline: z.object({ name: z.enum(['mAP50', 'top1']), value: z.number() }).nullable(),
  /** True when this answer is a stored evaluation of the same files (nothing ran again). */
  reused: z.boolean(),
  created: z.string(),
  started: z.string().nullable(),
  finished: z.string().nullable(),
});
export type Evaluation = z.infer<typeof evaluationSchema>;

/** A box in original-image pixels as the evaluation saw it (model class ids for predictions, mapped ones for labels). */
export const evaluationBoxSchema = z.object({
  classId: z.number().int(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  confidence: z.number().optional(),
  polygon: z.array(z.number()).optional(),
});
export type EvaluationBox = z.infer<typeof evaluationBoxSchema>;

export const evaluationMistakeSchema = z.object({
  kind: z.enum(EVALUATION_MISTAKE_KINDS),
  classId: z.number().int(),
  className: z.string(),
  /** The prediction's confidence; for a missed label, that of the best prediction overlapping it (0 if none). */
  confidence: z.number(),
  prediction: evaluationBoxSchema.nullable(),
  label: evaluationBoxSchema.nullable(),
  /** The dataset image, with its own labels (dataset class ids) and signed links, as the image browser lists it. */
  image: datasetImageSchema,
});
export type EvaluationMistake = z.infer<typeof evaluationMistakeSchema>;

export const evaluationMistakesQuerySchema = z.object({
  kind: z.enum(EVALUATION_MISTAKE_KINDS),
  classId: z.coerce.number().int().min(0).max(100_000).optional(),
  limit: z.coerce.number().int().min(1).max(EVALUATION_MISTAKES_PER_CLASS).default(EVALUATION_MISTAKES_PER_CLASS),
});
export const evaluationMistakesSchema = z.object({
  results: z.array(evaluationMistakeSchema),
  /** Dataset class names, by dataset class id (for the image's own labels). */
  datasetClassNames: z.array(z.string()),
});
export type EvaluationMistakes = z.infer<typeof evaluationMistakesSchema>;

/** The project page's compare: the newest completed evaluation of each of the project's models per dataset split. */
export const projectEvaluationsSchema = z.object({
  results: z.array(evaluationSchema.extend({ modelName: z.string() })),
});
export type ProjectEvaluations = z.infer<typeof projectEvaluationsSchema>;
