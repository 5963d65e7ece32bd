import { z } from 'zod';
import { abilitiesSchema, ownerSchema, privacySchema } from './common.js';
import { TRAINING_HEARTBEAT_MS, TRAINING_INITIALIZATION_MS } from './constants.js';

/** Spec §3 defaults of a new model. */
export const MODEL_DEFAULTS = {
  name: 'Unnamed Model',
  privacy: 'private' as const,
  config: { batchSize: -1, epochs: 300, imageSize: 640, patience: 100, cache: null, time: null, device: null },
};

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

export const MODEL_STATUSES = ['Status', 'New', 'Initializing', 'Training', 'Timeout', 'Trained'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

type TrainDates = { start?: string | Date | null; end?: string | Date | null; heartbeat?: string | Date | null; initialized?: string | Date | null };
const ms = (d: string | Date | null | undefined) => (d == null ? null : new Date(d).getTime());

/**
 * Model status of spec §4, computed from dates:
 * no dates → 'Status'; train.end → Trained; heartbeat within 5 min → Training;
 * initialized within 15 min → Initializing; a start but the checks fail → Timeout; else New.
 */
export function modelStatus(dates: { train?: TrainDates | null } | null | undefined, now: Date | number = Date.now()): ModelStatus {
  if (!dates) return 'Status';
  const t = dates.train ?? {};
  const nowMs = typeof now === 'number' ? now : now.getTime();
  if (ms(t.end) !== null) return 'Trained';
  const hb = ms(t.heartbeat);
  if (hb !== null && nowMs - hb <= TRAINING_HEARTBEAT_MS) return 'Training';
  const init = ms(t.initialized);
  if (init !== null && nowMs - init <= TRAINING_INITIALIZATION_MS) return 'Initializing';
  if (ms(t.start) !== null) return 'Timeout';
  return 'New';
}

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
  dataset: z.object({ id: z.string().nullable(), name: z.string().nullable(), filepath: z.string().nullable(), url: z.string().nullable(), type: z.string().nullable(), version: z.number().nullable() }),
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
  /** Legacy HUB protocol view (hub-protocol §10); the web app computes its status with modelStatus(). */
  status: z.enum(['new', 'training', 'trained']),
});
export type Model = z.infer<typeof modelSchema>;

export const createModelBody = z.object({
  meta: z.object({ name: z.string().trim().max(100).optional(), description: z.string().trim().max(1000).optional(), privacy: privacySchema.optional() }).optional(),
  project: z.object({ id: z.string().max(40) }).optional(),
  projectId: z.string().max(40).optional(),
  config: modelConfigSchema.partial().optional(),
  dataset: z.object({ id: z.string().max(40).optional(), name: z.string().max(500).optional() }).optional(),
  lineage: z
    .object({
      architecture: z.object({ id: z.string().max(100).optional(), name: z.string().max(200).optional() }).optional(),
      parent: z.object({ id: z.string().max(40).optional(), name: z.string().max(500).optional() }).passthrough().optional(),
    })
    .optional(),
  task: z.string().max(32).optional(),
});
export const updateModelBody = z.object({
  meta: z.object({ name: z.string().trim().min(1).max(100), description: z.string().trim().max(1000) }).partial().optional(),
  config: modelConfigSchema.partial().optional(),
  dataset: z.object({ id: z.string().max(40) }).optional(),
  lineage: createModelBody.shape.lineage,
});
export const transferModelBody = z.object({ projectId: z.string().max(40) });

/** Required properties of a model on creation (spec §5): 'Missing Required Properties'. */
export const MODEL_REQUIRED = ['owner'] as const;
