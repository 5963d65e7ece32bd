import { z } from 'zod';
import { safeName } from './names.js';
import { abilitiesSchema, ownerSchema, privacySchema } from './common.js';
import { DESCRIPTION_MAX, NAME_MAX, TRAINING_HEARTBEAT_MS, TRAINING_INITIALIZATION_MS } from './constants.js';

/** Spec §3 defaults of a new model. */
export const MODEL_DEFAULTS = {
  name: 'Unnamed Model',
  privacy: 'private' as const,
  config: { batchSize: -1, epochs: 300, imageSize: 640, patience: 100, cache: null, time: null, device: null },
};

/**
 * The tasks the ultralytics client trains, each with the suffix of its model names
 * (`yolo11n-seg.yaml`, `yolov8s-cls.pt`). The spec's semantic-segment is not one of them: the train
 * dialog and the server refuse it with untrainableReason() (ADR 0021).
 */
export const TRAINABLE_TASKS = { detect: '', segment: '-seg', classify: '-cls', pose: '-pose', obb: '-obb' } as const;
export type TrainableTask = keyof typeof TRAINABLE_TASKS;
export function isTrainableTask(task: string | null | undefined): task is TrainableTask {
  return task === null || task === undefined ? false : Object.hasOwn(TRAINABLE_TASKS, task);
}
/** Why a dataset of this task cannot be trained by ultralytics, or null when it can. */
export function untrainableReason(task: string | null | undefined): string | null {
  if (task === null || task === undefined || isTrainableTask(task)) return null;
  return `ultralytics cannot train ${task} models: it trains ${Object.keys(TRAINABLE_TASKS).join(', ')}. Pick a dataset of one of those tasks.`;
}

export const modelConfigSchema = z.object({
  batchSize: z.number().min(-1).max(4096),
  epochs: z.number().int().min(1).max(10000),
  imageSize: z.number().int().min(32).max(8192),
  patience: z.number().int().min(0).max(10000),
  cache: z.union([z.boolean(), z.enum(['ram', 'disk'])]).nullable(),
  device: z.string().max(64).nullable(),
  time: z.number().min(0).max(10000).nullable(),
  advanced: z.record(z.string(), z.unknown()).optional(),
});
export type ModelConfig = z.infer<typeof modelConfigSchema>;

export const modelDatesSchema = z.object({
  created: z.string(),
  updated: z.string(),
  archived: z.string().nullable(),
  deleted: z.string().nullable(),
  train: z.object({
    start: z.string().nullable(),
    end: z.string().nullable(),
    heartbeat: z.string().nullable(),
    initialized: z.string().nullable(),
  }),
});
export type ModelDates = z.infer<typeof modelDatesSchema>;

export const MODEL_STATUSES = ['Status', 'New', 'Initializing', 'Training', 'Timeout', 'Trained', 'Stopped', 'Failed'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

/**
 * The run lifecycle of ADR 0020, shared by client runs (both protocols) and cloud runs: queued (a
 * cloud run waiting for an agent) → running → completed | cancelled (Stopped) | failed | timeout.
 * A timed-out run that reports again is running again; cancelled, failed and timed-out models can
 * be trained again.
 */
export const RUN_STATES = ['queued', 'running', 'completed', 'cancelled', 'failed', 'timeout'] as const;
export type RunState = (typeof RUN_STATES)[number];

type TrainDates = { start?: string | Date | null; end?: string | Date | null; heartbeat?: string | Date | null; initialized?: string | Date | null };
const ms = (d: string | Date | null | undefined) => (d == null ? null : new Date(d).getTime());

/**
 * Model status of spec §4, computed from dates:
 * no dates → 'Status'; train.end → Trained; heartbeat within 5 min → Training;
 * initialized within 15 min → Initializing; a start but the checks fail → Timeout; else New.
 *
 * With the model's run (its `training` field, ADR 0020) the server's verdict comes first: a run that
 * ended cancelled is Stopped, failed is Failed, silent past the windows is Timeout (the dates of an
 * ended run carry train.end); a running run follows the dates rule (the server's sweep reaches the
 * same verdict within a minute); a queued run has no dates yet (New).
 */
export function modelStatus(
  dates: { train?: TrainDates | null } | null | undefined,
  now: Date | number = Date.now(),
  run?: { outcome: RunState } | null,
): ModelStatus {
  if (!dates) return 'Status';
  const t = dates.train ?? {};
  // An ended run sets train.end; a model reset since (legacy /model-reset) has no dates and is New again.
  if (ms(t.end) !== null && run?.outcome === 'cancelled') return 'Stopped';
  if (ms(t.end) !== null && run?.outcome === 'failed') return 'Failed';
  if (ms(t.start) !== null && run?.outcome === 'timeout') return 'Timeout';
  const nowMs = typeof now === 'number' ? now : now.getTime();
  if (ms(t.end) !== null) return 'Trained';
  const hb = ms(t.heartbeat);
  if (hb !== null && nowMs - hb <= TRAINING_HEARTBEAT_MS) return 'Training';
  const init = ms(t.initialized);
  if (init !== null && nowMs - init <= TRAINING_INITIALIZATION_MS) return 'Initializing';
  if (ms(t.start) !== null) return 'Timeout';
  return 'New';
}

/** A status that ended a run without weights to trust: the model may be trained again (ADR 0020). */
export const retrainableStatus = (status: ModelStatus) => status === 'Stopped' || status === 'Failed' || status === 'Timeout';

/** A run on the Active jobs page (GET /v1/training/runs): live ones, and those that ended Stopped or Failed in the last day. */
export const activeRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string().nullable(),
  outcome: z.enum(RUN_STATES),
  error: z.string().nullable(),
  protocol: z.enum(['hub', 'platform']),
  epochsDone: z.number(),
  epochsTotal: z.number().nullable(),
  dates: z.object({
    train: z.object({ start: z.string().nullable(), end: z.string().nullable(), heartbeat: z.string().nullable(), initialized: z.string().nullable() }),
  }),
});
export type ActiveRun = z.infer<typeof activeRunSchema>;

/** What the server knows about a client-reported training run (Sightline does not train itself). */
export const trainingStateSchema = z.object({
  protocol: z.enum(['hub', 'platform']),
  runId: z.string().nullable(),
  /** The run's state (ADR 0020): running until the run reports its end; cancelled when a Stop was honoured. */
  outcome: z.enum(RUN_STATES),
  /** Why the run failed or timed out, in the agent's or client's words. */
  error: z.string().nullable().optional(),
  /** When the run ended (completed, Stopped, Failed or Timeout). */
  ended: z.string().nullable().optional(),
  cancelRequested: z.boolean(),
  /** Set when no client event arrived for too long; nothing is deleted, a late event clears it. */
  stale: z.string().nullable(),
  lastEvent: z.string().nullable(),
  epochsTotal: z.number().nullable(),
  bestEpoch: z.number().nullable(),
});
export type TrainingState = z.infer<typeof trainingStateSchema>;

export const modelFileSchema = z.object({
  kind: z.string(),
  name: z.string(),
  bytes: z.number(),
  epoch: z.number().nullable(),
  created: z.string(),
  url: z.string().nullable(),
});

export const modelSchema = z.object({
  id: z.string(),
  slug: z.string(),
  config: modelConfigSchema,
  dataset: z.object({
    id: z.string().nullable(),
    name: z.string().nullable(),
    filepath: z.string().nullable(),
    url: z.string().nullable(),
    type: z.string().nullable(),
    version: z.number().nullable(),
  }),
  lineage: z.object({
    architecture: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
    parent: z.object({ id: z.string().nullable(), name: z.string().nullable(), path: z.string().nullable(), url: z.string().nullable() }),
  }),
  meta: z.object({ name: z.string(), description: z.string(), privacy: privacySchema }),
  project: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  dates: modelDatesSchema,
  owner: ownerSchema,
  order: z.number().nullable(),
  task: z.string().nullable(),
  names: z.array(z.string()),
  exports: z.record(z.string(), z.object({ bytes: z.number(), status: z.string() })),
  files: z.array(modelFileSchema),
  totals: z.object({ bytes: z.number() }),
  team: z.object({ id: z.string().nullable() }),
  metrics: z.object({ epochs: z.number(), best: z.record(z.string(), z.number()).nullable() }),
  abilities: abilitiesSchema,
  /**
   * `uploaded`: weights trained elsewhere and uploaded (no training configuration of this hub
   * applies to them); `created`: a model made here to be trained (dialog, client, cloud).
   */
  origin: z.enum(['created', 'uploaded']),
  /** The image size the weights expect, when known: the training config here, the file's metadata for uploads. */
  imageSize: z.number().nullable(),
  /** Legacy HUB protocol view (hub-protocol §10); the web app computes its status with modelStatus(). */
  status: z.enum(['new', 'training', 'trained']),
  /** Run state reported by the user's ultralytics client; absent until a client reported. */
  training: trainingStateSchema.nullable().optional(),
  // The fields below are only sent by GET /v1/models/{id}, for the ultralytics HUB client (hub-protocol §10).
  /** Dataset URL (signed, self-authorising). */
  data: z.string().nullable().optional(),
  cfg: z.string().nullable().optional(),
  weights: z.string().nullable().optional(),
  resume: z.string().nullable().optional(),
  is_pretrained: z.boolean().optional(),
  has_last_weights: z.boolean().optional(),
  has_best_weights: z.boolean().optional(),
  train_args: z.record(z.string(), z.unknown()).nullable().optional(),
  batch_size: z.number().optional(),
  epochs: z.number().optional(),
  imgsz: z.number().optional(),
  patience: z.number().optional(),
  device: z.string().optional(),
  cache: z.union([z.boolean(), z.string()]).optional(),
});
export type Model = z.infer<typeof modelSchema>;

export const createModelBody = z.object({
  meta: z
    .object({
      name: z
        .string()
        .trim()
        .transform(shortName)
        .pipe(safeName(z.string().max(NAME_MAX, `At most ${NAME_MAX} characters`)))
        .optional(),
      description: z.string().trim().max(DESCRIPTION_MAX).optional(),
      privacy: privacySchema.optional(),
    })
    .optional(),
  project: z.object({ id: z.string().max(40) }).optional(),
  projectId: z.string().max(40).optional(),
  config: modelConfigSchema
    .extend({
      // hub-sdk sends Python str() values: device "None"/"cpu", cache "True"/"False"/"None"/"ram" (hub-protocol §5.4).
      cache: z
        .union([z.boolean(), z.string().max(16)])
        .nullable()
        .transform(parseCacheValue),
      device: z
        .union([z.string().max(64), z.number()])
        .nullable()
        .transform((d) => (d === null || d === 'None' || d === '' ? null : String(d))),
    })
    .partial()
    .optional(),
  // Local paths from the client can be long: cut to what the columns keep instead of refusing the run.
  dataset: z
    .object({
      id: z.string().max(40).optional(),
      name: z
        .string()
        .transform((v) => v.slice(0, 500))
        .optional(),
    })
    .optional(),
  lineage: z
    .object({
      architecture: z
        .object({
          id: z.string().max(100).optional(),
          name: z
            .string()
            .transform((v) => v.slice(-200))
            .optional(),
        })
        .optional(),
      parent: z
        .object({
          id: z.string().max(40).optional(),
          name: z
            .string()
            .transform((v) => v.slice(-500))
            .optional(),
        })
        .passthrough()
        .optional(),
    })
    .optional(),
  task: z.string().max(32).optional(),
});

/** hub-sdk's meta.name is the client's model file argument, maybe a long path: keep its base name (then NAME_MAX applies). */
function shortName(v: string): string {
  return v.length > NAME_MAX ? (v.split(/[\\/]/).pop() ?? v) : v;
}

/** Python-style cache values → the model config's `true | false | 'ram' | 'disk' | null`. */
export function parseCacheValue(v: boolean | string | null): boolean | 'ram' | 'disk' | null {
  if (v === null || typeof v === 'boolean') return v;
  const s = v.trim().toLowerCase();
  if (s === 'ram' || s === 'disk') return s;
  if (s === 'true') return true;
  if (s === 'false') return false;
  return null;
}
export const updateModelBody = z.object({
  meta: z
    .object({ name: safeName(z.string().trim().min(1).max(NAME_MAX)), description: z.string().trim().max(DESCRIPTION_MAX) })
    .partial()
    .optional(),
  config: modelConfigSchema.partial().optional(),
  dataset: z.object({ id: z.string().max(40) }).optional(),
  lineage: createModelBody.shape.lineage,
});
export const transferModelBody = z.object({ projectId: z.string().max(40) });

/** Required properties of a model on creation (spec §5): 'Missing Required Properties'. */
export const MODEL_REQUIRED = ['owner'] as const;

// ---- training as the web app reads it ----------------------------------------------------------

/** One epoch as the client reported it: `epoch` (0-based) plus flat metric keys (`metrics/mAP50(B)`, `train/box_loss`, …). */
export const epochMetricsSchema = z.object({ epoch: z.number() }).catchall(z.unknown());
export type EpochMetrics = z.infer<typeof epochMetricsSchema>;
export const consoleChunkSchema = z.object({ chunkId: z.number(), content: z.string(), lineCount: z.number(), created: z.string() });
export type ConsoleChunk = z.infer<typeof consoleChunkSchema>;
/** `GET /v1/models/{id}/console`: chunks after a cursor; `next` is the cursor of the following page, null at the end. */
export const consolePageSchema = z.object({ data: z.array(consoleChunkSchema), next: z.number().nullable() });

// ---- inference (HUB-compatible predict API, dedicated endpoints, usage) ------------------------

export const predictBoxSchema = z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() });
export type PredictBox = z.infer<typeof predictBoxSchema>;
/** One result like HUB's `images[].results[]`: `box` / `segments` / `keypoints` where the task has them. */
export const predictResultSchema = z.object({
  class: z.number(),
  name: z.string(),
  confidence: z.number(),
  box: predictBoxSchema.optional(),
  segments: z.object({ x: z.array(z.number()), y: z.array(z.number()) }).optional(),
  keypoints: z.object({ x: z.array(z.number()), y: z.array(z.number()), visible: z.array(z.number()).optional() }).optional(),
});
export type PredictResult = z.infer<typeof predictResultSchema>;
/** Milliseconds per stage, like ultralytics `Results.speed` plus the image decode. */
export const predictSpeedSchema = z.object({ decode: z.number().optional(), preprocess: z.number(), inference: z.number(), postprocess: z.number() });
export type PredictSpeed = z.infer<typeof predictSpeedSchema>;
/** `POST /v1/predict/{modelId}` and `POST /v1/endpoints/{id}/predict` (not enveloped, as HUB's). */
export const predictResponseSchema = z.object({
  /** `shape` is [height, width] of the image after EXIF orientation: the boxes' pixel space. */
  images: z.array(z.object({ shape: z.array(z.number()).length(2), results: z.array(predictResultSchema), speed: predictSpeedSchema })),
  speed: predictSpeedSchema,
  metadata: z.object({ model: z.string(), task: z.string(), names: z.array(z.string()), imgsz: z.array(z.number()).length(2) }),
});
export type PredictResponse = z.infer<typeof predictResponseSchema>;

export const inferenceEndpointSchema = z.object({
  id: z.string(),
  modelId: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  url: z.string(),
  created: z.string(),
});
export type InferenceEndpoint = z.infer<typeof inferenceEndpointSchema>;

/** `GET /v1/users/me/inference-usage`: this month's calls, the plan's limits, and calls per API key. */
export const inferenceUsageSchema = z.object({
  /** `YYYY-MM` */
  month: z.string(),
  total: z.number(),
  limits: z.object({ perHour: z.number(), perMonth: z.number() }),
  /** `apiKeyId` null: calls made from the web app with the session. */
  perKey: z.array(z.object({ apiKeyId: z.string().nullable(), name: z.string(), prefix: z.string(), count: z.number() })),
});
export type InferenceUsage = z.infer<typeof inferenceUsageSchema>;
