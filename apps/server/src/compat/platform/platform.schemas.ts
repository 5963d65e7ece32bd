import { NAME_MAX } from '@sightline/contracts';
import { z } from 'zod';
import { errors } from '../../platform/http/errors.js';

/** Bodies of the Ultralytics Platform protocol (platform-protocol.md §3–5) and the webhook's event payloads. */

/** The run's name becomes the model's name, and `owner/project` the project's: both keep to NAME_MAX (ADR 0013). */
const runName = z.string().max(NAME_MAX, `At most ${NAME_MAX} characters`);
const projectArg = z
  .string()
  .max(NAME_MAX + 64)
  .refine((p) => (p.includes('/') ? p.slice(p.indexOf('/') + 1) : p).length <= NAME_MAX, `The project name is at most ${NAME_MAX} characters`);
const trainArgValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const envelope = z
  .object({
    event: z.string().max(64),
    data: z.record(z.string(), z.unknown()).nullish(),
    modelId: z.string().max(40).nullish(),
    project: projectArg.nullish(),
    name: runName.nullish(),
  })
  .passthrough();
export type Envelope = z.infer<typeof envelope>;

export const startedData = z
  .object({
    trainArgs: z.record(z.string(), trainArgValue.or(z.unknown())).nullish(),
    epochs: z.union([z.number(), z.string()]).nullish(),
    device: z.string().nullish(),
    environment: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough()
  // The run may name itself only in its train args (`name=`, `project=`): the same limits apply there.
  .superRefine((d, refine) => {
    for (const [key, schema] of [
      ['name', runName],
      ['project', projectArg],
    ] as const) {
      const value = d.trainArgs?.[key];
      const checked = typeof value === 'string' ? schema.safeParse(value) : null;
      if (checked && !checked.success) refine.addIssue({ code: 'custom', path: ['trainArgs', key], message: checked.error.issues[0]?.message ?? 'Too long' });
    }
  });
export const consoleData = z
  .object({ chunkId: z.number().int().min(0).max(10_000_000), content: z.string().max(1024 * 1024), lineCount: z.number().int().min(0).nullish() })
  .passthrough();
export const epochData = z
  .object({
    epoch: z.number().int().min(0).max(100_000),
    metrics: z.record(z.string(), z.unknown()).nullish(),
    system: z.record(z.string(), z.unknown()).nullish(),
    fitness: z.number().nullish(),
    best_fitness: z.number().nullish(),
    modelInfo: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
export const checkpointData = z
  .object({ modelPath: z.string().max(1024).nullish(), runId: z.string().max(100).nullish(), uploadPath: z.string().max(1024).nullish() })
  .passthrough();
export const completeData = z
  .object({
    results: z
      .object({
        metrics: z.record(z.string(), z.unknown()).nullish(),
        bestEpoch: z.number().int().nullish(),
        bestFitness: z.number().nullish(),
        modelPath: z.string().max(1024).nullish(),
        modelSize: z.number().nullish(),
      })
      .passthrough()
      .nullish(),
    classNames: z.array(z.string()).nullish(),
    plots: z.array(z.unknown()).nullish(),
    runId: z.string().max(100).nullish(),
  })
  .passthrough();

export const uploadBody = z.object({
  filename: z.string().max(255),
  modelId: z.string().max(40).nullish(),
  project: projectArg.nullish(),
  name: runName.nullish(),
  runId: z.string().max(100).nullish(),
});
export type UploadBody = z.infer<typeof uploadBody>;

export const slugParams = z.object({ owner: z.string().max(64), dataset: z.string().max(128) });
export const modelParams = z.object({ owner: z.string().max(64), project: z.string().max(128), model: z.string().max(128) });

/** An event's `data` checked against its schema; the 400 names the event and the first bad field. */
export function parseEventData<T extends z.ZodTypeAny>(schema: T, value: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw errors.validation(`${what}: ${i ? `${i.path.join('.') || 'data'}: ${i.message}` : 'invalid'}`);
  }
  return r.data;
}

/** The model an event or upload names: `modelId`, or (8.4.115–8.4.119 early chunks) project + name. */
export const modelRefOf = (body: { modelId?: string | null; project?: string | null; name?: string | null }) => ({
  modelId: body.modelId,
  project: body.project,
  name: body.name,
});

// ---- answers (what the client reads; the serializer sends exactly these fields) ----------------

export const settingsResponse = z.object({ username: z.string(), name: z.string(), email: z.string() });
export const accountSummaryResponse = z.object({
  username: z.string(),
  name: z.string(),
  accountType: z.literal('personal'),
  plan: z.string(),
  creditsCents: z.number().int(),
  counts: z.object({ projects: z.number().int(), datasets: z.number().int(), models: z.number().int() }),
  teams: z.array(z.unknown()),
});
export const apiKeysResponse = z.object({ keys: z.array(z.object({ keyId: z.string(), name: z.string(), keyPrefix: z.string(), createdAt: z.string() })) });
export const datasetExportResponse = z.object({ downloadUrl: z.string(), cached: z.boolean() });
export const modelFilesResponse = z.object({ files: z.array(z.object({ name: z.string(), size: z.number(), downloadUrl: z.string() })) });
export const uploadResponse = z.object({ uploadUrl: z.string(), gcsPath: z.string(), uploadPath: z.string() });
/** `training_started` answers the run's ids; every other event `{ok: true}` plus what it reports back. */
export const webhookResponse = z.union([
  z.object({ modelId: z.string(), runId: z.string(), modelSlug: z.string(), cancelled: z.boolean() }),
  z.object({ ok: z.literal(true), cancelled: z.boolean().optional(), modelPath: z.string().optional(), ignored: z.literal(true).optional() }),
]);
