import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { modelsRepository } from '../../modules/models/models.repository.js';
import { streamIntoStore } from '../../modules/training/training.files.js';
import {
  fileOf,
  finishRun,
  markResumable,
  promoteFile,
  publishModel,
  recordEpochMetrics,
  recordHeartbeat,
  reportableModel,
  touchRun,
  trainingRepository,
} from '../../modules/training/training.service.js';

/**
 * Legacy Ultralytics HUB protocol (ultralytics < 8.4.115 + hub-sdk), hub-protocol.md §5.5–5.8:
 * heartbeats, double-encoded metrics and multipart checkpoint/final uploads. `POST /v1/auth`,
 * `GET /v1/models/{id}` and `POST /v1/models` live with their modules and serve both clients.
 * Every answer is JSON: several client call sites call `.json()` unguarded (§4).
 */

const idParams = z.object({ id: z.string().max(40) });
const successSchema = z.object({ success: z.literal(true) });
/** Checkpoints carry optimizer state (~3× the weights): allow big ones, the storage quota still applies. */
const MAX_CHECKPOINT_BYTES = 8 * 1024 ** 3;

const heartbeatBody = z.object({ agent: z.string().max(200).nullish(), agentId: z.string().max(100).nullish() }).passthrough();

/** `{"<epoch>": "<JSON-encoded object>"}`; plain objects are accepted too (a client that forgot to encode). */
const metricsBody = z.object({
  type: z.literal('metrics'),
  metrics: z.record(z.string().regex(/^\d{1,6}$/, 'epoch keys are 0-based integers'), z.union([z.string().max(256 * 1024), z.record(z.string(), z.unknown())])),
});

function decodeEpochMetrics(raw: z.infer<typeof metricsBody>['metrics']) {
  const entries: Array<{ epoch: number; metrics: Record<string, unknown> }> = [];
  for (const [key, value] of Object.entries(raw)) {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        throw errors.validation(`metrics.${key}: not a JSON-encoded object`);
      }
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.validation(`metrics.${key}: not a JSON-encoded object`);
    entries.push({ epoch: Number(key), metrics: parsed as Record<string, unknown> });
  }
  if (!entries.length) throw errors.validation('metrics: no epoch given');
  return entries;
}

const intField = (v: string | undefined) => (v !== undefined && /^-?\d{1,6}$/.test(v.trim()) ? Number(v.trim()) : null);

export async function hubCompatRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.post(
    '/v1/agent/heartbeat/models/:id',
    {
      config: { auth: 'user' },
      schema: { tags: ['compat'], params: idParams, body: heartbeatBody.optional(), response: { 200: z.object({ success: z.literal(true), data: z.object({ agentId: z.string() }) }), ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      const model = await reportableModel(ctx, user.id, req.params.id);
      const agentId = await recordHeartbeat(ctx, model, req.body ?? {});
      return { success: true as const, data: { agentId } };
    },
  );

  r.post(
    '/v1/models/:id',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, body: metricsBody, response: { 200: successSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const entries = decodeEpochMetrics(req.body.metrics);
      const model = await reportableModel(ctx, user.id, req.params.id);
      await recordEpochMetrics(ctx, model, 'hub', entries);
      return { success: true as const };
    },
  );

  /**
   * Multipart: fields `epoch`, `type` (epoch | final), `isBest` or `map`, then one file part named
   * `last.pt` or `best.pt` (hub-protocol §5.7/5.8). Retried up to 10 times with the same content, so
   * it writes to a name fixed by model and epoch and replaces atomically: retries are idempotent and an
   * interrupted body leaves the model as it was.
   */
  r.post(
    '/v1/models/:id/upload',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, consumes: ['multipart/form-data'], response: { 200: successSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const model = await reportableModel(ctx, user.id, req.params.id);
      if (!req.isMultipart()) throw errors.validation('Send multipart/form-data with epoch, type and the weights file');
      const fields: Record<string, string> = {};
      let stored: { kind: 'best' | 'last'; key: string; bytes: number; epoch: number | null } | null = null;
      try {
        for await (const part of req.parts({ limits: { fileSize: MAX_CHECKPOINT_BYTES, files: 1, fieldSize: 4096, fields: 20 } })) {
          if (part.type !== 'file') {
            fields[part.fieldname] = String(part.value ?? '');
            continue;
          }
          const type = fields.type;
          const kind: 'best' | 'last' = type === 'final' ? 'best' : type === 'epoch' ? 'last' : part.fieldname === 'best.pt' ? 'best' : 'last';
          const epoch = intField(fields.epoch);
          // Unique, stable names: the client keeps any local file of the same name (hub-protocol §5.9),
          // and the model id in it lets a later local run name its parent (traces README).
          const name = kind === 'best' ? `${model.id}-best.pt` : `${model.id}-last-e${epoch ?? 0}.pt`;
          const key = `users/${model.userId}/models/${model.id}/${name}`;
          const existing = await fileOf(ctx, model.id, kind);
          const { bytes } = await streamIntoStore(ctx, user, key, part.file, { replacing: existing?.bytes ?? 0, maxBytes: MAX_CHECKPOINT_BYTES });
          if (part.file.truncated) {
            await ctx.blobs.delete(key).catch(() => undefined);
            throw errors.payloadTooLarge('Checkpoints can be at most 8 GB');
          }
          if (bytes === 0) {
            await ctx.blobs.delete(key).catch(() => undefined);
            throw errors.validation('The weights file is empty');
          }
          stored = { kind, key, bytes, epoch };
        }
      } catch (err) {
        if (stored && !(await fileOf(ctx, model.id, stored.kind).then((f) => f?.blobKey === stored!.key))) await ctx.blobs.delete(stored.key).catch(() => undefined);
        if (err instanceof AppError) throw err;
        // A client that went away mid-body: nothing was promoted, the retry will send it again.
        req.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
        throw new AppError(400, 'error/upload-interrupted', 'The upload did not complete; send it again');
      }
      if (!stored) throw errors.validation('Attach the weights as a file part named last.pt or best.pt');
      const name = stored.key.slice(stored.key.lastIndexOf('/') + 1);
      if (stored.kind === 'last') {
        await promoteFile(ctx, model, { kind: 'last', key: stored.key, name, bytes: stored.bytes, epoch: stored.epoch }, { onlyIfNewer: true });
        const { model: touched } = await touchRun(ctx, model, 'hub');
        await publishModel(ctx, await markResumable(ctx, touched), 'model.updated', { files: true });
      } else {
        await promoteFile(ctx, model, { kind: 'best', key: stored.key, name, bytes: stored.bytes, epoch: stored.epoch });
        const run = await trainingRepository.get(ctx.db, model.id);
        const map = Number(fields.map);
        const current = (await modelsRepository.byId(ctx.db, model.id)) ?? model;
        await finishRun(ctx, current, 'hub', {
          epoch: stored.epoch,
          finalMetrics: run?.finalMetrics ?? null,
          extra: { results: { ...(run?.results ?? {}), map: Number.isFinite(map) ? map : null } },
        });
      }
      return { success: true as const };
    },
  );
}
