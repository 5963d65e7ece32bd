import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { modelConfigSchema, parseCacheValue } from '@sightline/contracts';
import { apiKeys, datasets, models, modelTraining, projects } from '../../platform/db/schema.js';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { fileUrl } from '../../modules/models/models.presenter.js';
import { createModel } from '../../modules/models/models.service.js';
import { modelsRepository, type ModelRow } from '../../modules/models/models.repository.js';
import { canRead } from '../../modules/projects/access.js';
import { createProject } from '../../modules/projects/projects.service.js';
import { slugify } from '../../modules/projects/slugs.js';
import { usersRepository } from '../../modules/users/users.repository.js';
import { datasetBySlug } from '../../modules/training/training.datasets.js';
import { baseUrlFor, signCompatUrl, streamIntoStore, verifyCompatUrl } from '../../modules/training/training.files.js';
import {
  appendConsole,
  cancelRequested,
  fileOf,
  finishRun,
  promoteFile,
  publishModel,
  recordEpochMetrics,
  reportableModel,
  touchRun,
  trainingRepository,
  upsertRun,
} from '../../modules/training/training.service.js';
import { installLenientUploadSink, type RawUploadRequest } from './lenient-upload.js';

/**
 * Ultralytics Platform protocol (ultralytics ≥ 8.4.115), platform-protocol.md and the recorded trace:
 * login checks, the training webhook with its five events, signed checkpoint uploads (with the
 * client's Content-Length + Transfer-Encoding quirk), `ul://` resolution in both client generations
 * and the dataset as NDJSON. Errors are `{"error": "..."}` JSON, and 401 only ever means a bad key:
 * the client disables tracking for the whole process on a 401 (§4.2).
 */

export const UPLOAD_PREFIX = '/v1/compat/uploads/';
const UPLOAD_URL_TTL_MS = 24 * 3_600_000;
const MODEL_URL_TTL_MS = 24 * 3_600_000;
const MAX_UPLOAD_BYTES = 8 * 1024 ** 3;

const trainArgValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const envelope = z
  .object({
    event: z.string().max(64),
    data: z.record(z.string(), z.unknown()).nullish(),
    modelId: z.string().max(40).nullish(),
    project: z.string().max(300).nullish(),
    name: z.string().max(300).nullish(),
  })
  .passthrough();
type Envelope = z.infer<typeof envelope>;

const startedData = z
  .object({
    trainArgs: z.record(z.string(), trainArgValue.or(z.unknown())).nullish(),
    epochs: z.union([z.number(), z.string()]).nullish(),
    device: z.string().nullish(),
    environment: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
const consoleData = z.object({ chunkId: z.number().int().min(0).max(10_000_000), content: z.string().max(1024 * 1024), lineCount: z.number().int().min(0).nullish() }).passthrough();
const epochData = z
  .object({
    epoch: z.number().int().min(0).max(100_000),
    metrics: z.record(z.string(), z.unknown()).nullish(),
    system: z.record(z.string(), z.unknown()).nullish(),
    fitness: z.number().nullish(),
    best_fitness: z.number().nullish(),
    modelInfo: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
const checkpointData = z.object({ modelPath: z.string().max(1024).nullish(), runId: z.string().max(100).nullish(), uploadPath: z.string().max(1024).nullish() }).passthrough();
const completeData = z
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
const uploadBody = z.object({
  filename: z.string().max(255),
  modelId: z.string().max(40).nullish(),
  project: z.string().max(300).nullish(),
  name: z.string().max(300).nullish(),
  runId: z.string().max(100).nullish(),
});

function parse<T extends z.ZodTypeAny>(schema: T, value: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw errors.validation(`${what}: ${i ? `${i.path.join('.') || 'data'}: ${i.message}` : 'invalid'}`);
  }
  return r.data;
}

/** `owner/rest` → slug of rest; no `/` → slug of the whole (client's `_get_project_name`, §4.10). */
function projectSlugOf(project: string): { slug: string; name: string } {
  const rest = project.includes('/') ? project.slice(project.indexOf('/') + 1) : project;
  const name = rest.replace(/\//g, '-').trim() || 'Untitled';
  return { slug: slugify(name), name };
}

/** Training args arrive stringified (`"8"`, `"None"`, `"False"`); keep only what our config validates. */
function configFromTrainArgs(args: Record<string, unknown>) {
  const str = (k: string) => (args[k] === undefined || args[k] === null ? undefined : String(args[k]));
  const num = (k: string) => {
    const v = str(k);
    return v !== undefined && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  };
  const cache = str('cache');
  const device = str('device');
  const time = num('time');
  const candidate = {
    epochs: num('epochs'),
    imageSize: num('imgsz'),
    batchSize: num('batch'),
    patience: num('patience'),
    cache: cache === undefined ? undefined : parseCacheValue(cache),
    device: device === undefined || device === 'None' || device === '' ? undefined : device,
    time: time ?? undefined,
  };
  const out: Record<string, unknown> = {};
  const shape = modelConfigSchema.shape as Record<string, z.ZodTypeAny>;
  for (const [k, v] of Object.entries(candidate)) if (v !== undefined && shape[k]!.safeParse(v).success) out[k] = v;
  return out;
}

/** Stored names are `<slug>[-<local stem>]-<uploadId8>.pt`: a `last` stem is the resumable checkpoint. */
function storedKind(model: ModelRow, storedName: string): 'best' | 'last' {
  const rest = storedName.startsWith(model.slug) ? storedName.slice(model.slug.length) : storedName;
  return /^-last-/.test(rest) ? 'last' : 'best';
}

export async function platformCompatRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  // Platform clients print body.error; the SDK generation only parses application/json bodies.
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, 'platform compat error');
      return reply.status(err.statusCode).send({ error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) return reply.status(400).send({ error: err.message });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ error: err.message });
    request.log.error({ err }, 'platform compat error');
    return reply.status(500).send({ error: 'Internal server error' });
  });
  // The checkpoint PUT body is streamed to storage, never parsed or buffered.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  const user = (req: FastifyRequest) => requireUser(req).user;

  // ---- login (§3): 8.4.115–8.4.146 check GET /api/settings, the SDK generation GET /api/account/summary.
  app.get('/api/settings', { config: { auth: 'user' } }, async (req) => {
    const u = user(req);
    return { username: u.username, name: [u.firstName, u.lastName].filter(Boolean).join(' '), email: u.email };
  });
  app.get('/api/account/summary', { config: { auth: 'user' } }, async (req) => {
    const u = user(req);
    const counted = async (table: typeof projects | typeof datasets | typeof models) =>
      Number((await ctx.db.select({ n: count() }).from(table).where(and(eq(table.userId, u.id), isNull(table.deletedAt))))[0]?.n ?? 0);
    return {
      username: u.username,
      name: [u.firstName, u.lastName].filter(Boolean).join(' '),
      accountType: 'personal',
      plan: u.plan,
      creditsCents: Math.floor(u.walletBalance / 10_000),
      counts: { projects: await counted(projects), datasets: await counted(datasets), models: await counted(models) },
      teams: [],
    };
  });
  app.get('/api/api-keys', { config: { auth: 'user' } }, async (req) => {
    const rows = await ctx.db.select().from(apiKeys).where(and(eq(apiKeys.userId, user(req).id), isNull(apiKeys.revokedAt)));
    return { keys: rows.map((k) => ({ keyId: k.id, name: k.name, keyPrefix: k.prefix, createdAt: k.createdAt.toISOString() })) };
  });

  /** The model an event is about: by `modelId`, or (8.4.115–8.4.119 early chunks) by project + name. */
  async function eventModel(userId: string, body: Envelope): Promise<ModelRow> {
    if (body.modelId) return reportableModel(ctx, userId, body.modelId);
    if (!body.project) throw errors.validation('modelId or project and name are required');
    const { slug } = projectSlugOf(body.project);
    const [project] = await ctx.db.select().from(projects).where(and(eq(projects.userId, userId), eq(projects.slug, slug), isNull(projects.deletedAt))).limit(1);
    const name = body.name ?? 'train';
    const [row] = project
      ? await ctx.db
          .select()
          .from(models)
          .where(and(eq(models.projectId, project.id), eq(models.name, name), isNull(models.deletedAt)))
          .orderBy(desc(models.createdAt))
          .limit(1)
      : [];
    if (!row) throw errors.notFound('Model');
    return row;
  }

  async function projectFor(userId: string, projectArg: string) {
    const { slug, name } = projectSlugOf(projectArg);
    const [bySlug] = await ctx.db.select().from(projects).where(and(eq(projects.userId, userId), eq(projects.slug, slug), isNull(projects.deletedAt))).limit(1);
    if (bySlug) return bySlug;
    // A trashed project keeps its slug; a live one with the same name is the user's intent.
    const [byName] = await ctx.db.select().from(projects).where(and(eq(projects.userId, userId), eq(projects.name, name), isNull(projects.deletedAt))).limit(1);
    return byName ?? createProject(ctx, userId, { name });
  }

  async function trainingStarted(userId: string, body: Envelope) {
    const data = parse(startedData, body.data, 'training_started');
    const args = (data.trainArgs ?? {}) as Record<string, unknown>;
    const projectArg = body.project ?? (typeof args.project === 'string' ? args.project : null);
    if (!projectArg || projectArg === 'None') throw errors.validation('project is required');
    const project = await projectFor(userId, projectArg);
    const runName = (body.name ?? (typeof args.name === 'string' ? args.name : null) ?? 'train').trim() || 'train';
    const dataArg = typeof args.data === 'string' ? args.data : null;
    const ul = dataArg ? /^ul:\/\/([^/]+)\/datasets\/([^/?#]+)$/.exec(dataArg) : null;
    const dataset = ul ? await datasetBySlug(ctx, userId, ul[1]!, ul[2]!).catch(() => null) : null;
    const modelArg = typeof args.model === 'string' ? args.model : null;
    const modelBase = modelArg ? modelArg.split(/[\\/]/).pop()! : null;
    const fromWeights = Boolean(modelArg && (/\.pt$/i.test(modelArg) || modelArg.startsWith('ul://')));
    const task = typeof args.task === 'string' && /^[a-z-]{1,32}$/.test(args.task) ? args.task : null;
    const runId = `run_${newId()}`;
    // A model made in the web app (train dialog) and never reported to takes this run: the snippet
    // the dialog shows names it (`name=<model slug>`). Any other name, or a model that already ran,
    // gets a new model with the next free slug.
    let model: ModelRow | null = await unstartedModel(userId, project.id, slugify(runName));
    if (model) {
      model = (await modelsRepository.update(ctx.db, model.id, {
        config: { ...(model.config as object), ...configFromTrainArgs(args) },
        datasetId: model.datasetId ?? dataset?.id ?? null,
        datasetName: model.datasetName ?? dataset?.name ?? null,
        task: model.task ?? task,
        updatedAt: ctx.clock.now(),
      }))!;
    }
    // Two starts racing for the same slug: the unique index decides, the loser takes the next slug.
    for (let attempt = 0; !model; attempt++) {
      try {
        model = await createModel(ctx, {
          userId,
          projectId: project.id,
          name: runName,
          config: configFromTrainArgs(args),
          datasetId: dataset?.id ?? null,
          datasetName: dataset?.name ?? dataArg?.slice(0, 500) ?? null,
          architecture: modelBase ? { name: modelBase.replace(/\.(ya?ml|pt)$/i, '').slice(0, 200) } : undefined,
          parent: fromWeights ? { name: modelBase!.slice(0, 500), ...(modelArg!.startsWith('ul://') ? { url: modelArg! } : {}) } : undefined,
          task,
        });
      } catch (err) {
        if (attempt >= 2 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
      }
    }
    const epochs = Number(data.epochs ?? args.epochs);
    await upsertRun(ctx.db, model.id, 'platform', {
      runId,
      trainArgs: args,
      environment: data.environment ?? null,
      epochsTotal: Number.isInteger(epochs) && epochs > 0 ? epochs : null,
      updatedAt: ctx.clock.now(),
    });
    const touched = await touchRun(ctx, model, 'platform');
    // Pages already open on this model (the train dialog's) move to Initializing/Training now.
    await publishModel(ctx, touched.model, 'model.updated');
    return { modelId: model.id, runId, modelSlug: model.slug, cancelled: false };
  }

  async function unstartedModel(userId: string, projectId: string, slug: string) {
    const row = await modelsRepository.bySlug(ctx.db, userId, projectId, slug);
    if (!row || row.deletedAt || row.trainStart || row.trainEnd || row.hubStatus !== 'new') return null;
    const run = (await ctx.db.select({ id: modelTraining.modelId }).from(modelTraining).where(eq(modelTraining.modelId, row.id)).limit(1))[0];
    return run ? null : row;
  }

  /** A modelPath the client echoes must be one of this model's uploads (no promoting someone else's blob). */
  async function promoteUpload(model: ModelRow, modelPath: string) {
    const prefix = `users/${model.userId}/models/${model.id}/`;
    if (!modelPath.startsWith(prefix) || modelPath.includes('..')) throw errors.validation('modelPath does not belong to this model');
    const head = await ctx.blobs.head(modelPath);
    if (!head) throw errors.validation('Nothing was uploaded to modelPath');
    const name = modelPath.slice(prefix.length);
    const kind = storedKind(model, name);
    const current = await fileOf(ctx, model.id, kind);
    if (current?.blobKey !== modelPath) await promoteFile(ctx, model, { kind, key: modelPath, name, bytes: head.bytes, epoch: null });
  }

  app.post('/api/webhooks/training/metrics', { config: { auth: 'user' }, bodyLimit: 32 * 1024 * 1024, schema: { tags: ['compat'], body: envelope } }, async (req) => {
    const userId = user(req).id;
    const body = req.body as Envelope;
    if (body.event === 'training_started') return trainingStarted(userId, body);
    const model = await eventModel(userId, body);
    switch (body.event) {
      case 'console_output': {
        const data = parse(consoleData, body.data, 'console_output');
        await appendConsole(ctx, model, { chunkId: data.chunkId, content: data.content, lineCount: data.lineCount ?? data.content.split('\n').length });
        await touchRun(ctx, model, 'platform');
        return { ok: true };
      }
      case 'epoch_end': {
        const data = parse(epochData, body.data, 'epoch_end');
        const metrics = { ...(data.metrics ?? {}), ...(typeof data.fitness === 'number' ? { fitness: data.fitness } : {}) };
        await recordEpochMetrics(ctx, model, 'platform', [{ epoch: data.epoch, metrics }], {
          ...(data.system ? { system: data.system } : {}),
          ...(data.modelInfo ? { modelInfo: data.modelInfo } : {}),
        });
        // The client learns of a Stop only here; it keeps answering true until the run ends (traces README §4).
        return { ok: true, cancelled: await cancelRequested(ctx, model.id) };
      }
      case 'checkpoint_saved': {
        const data = parse(checkpointData, body.data, 'checkpoint_saved');
        const run = await trainingRepository.get(ctx.db, model.id);
        if (data.runId && run?.runId && data.runId !== run.runId) throw errors.validation('runId does not belong to this model');
        if (!data.modelPath) throw errors.validation('checkpoint_saved: modelPath is required');
        await promoteUpload(model, data.modelPath);
        await touchRun(ctx, model, 'platform');
        return { ok: true, modelPath: data.modelPath };
      }
      case 'training_complete': {
        const data = parse(completeData, body.data, 'training_complete');
        const results = data.results ?? {};
        if (results.modelPath) await promoteUpload(model, results.modelPath).catch((err: unknown) => req.log.warn({ err, modelId: model.id }, 'final modelPath not promoted'));
        const { metrics: finalMetrics, ...rest } = results;
        const current = (await modelsRepository.byId(ctx.db, model.id)) ?? model;
        await finishRun(ctx, current, 'platform', {
          finalMetrics: finalMetrics ?? null,
          names: data.classNames ?? null,
          extra: {
            results: rest,
            plots: data.plots ?? null,
            ...(typeof results.bestEpoch === 'number' ? { bestEpoch: results.bestEpoch } : {}),
            ...(typeof results.bestFitness === 'number' ? { bestFitness: results.bestFitness } : {}),
          },
        });
        return { ok: true };
      }
      default:
        // training_progress, system_metrics, training_failed are cloud-worker events (§4.2): accepted, not stored.
        if (/^[a-z_]{1,64}$/.test(body.event)) {
          if (body.event === 'training_failed') return { ok: true };
          return { ok: true, ignored: true };
        }
        throw errors.validation(`Unknown event ${body.event}`);
    }
  });

  // ---- checkpoint upload URL (§4.6 step 1)
  app.post('/api/webhooks/models/upload', { config: { auth: 'user' }, schema: { tags: ['compat'], body: uploadBody } }, async (req) => {
    const userId = user(req).id;
    const body = req.body as z.infer<typeof uploadBody>;
    const model = await eventModel(userId, { event: 'upload', modelId: body.modelId, project: body.project, name: body.name });
    const base = body.filename.split(/[\\/]/).pop()!;
    const m = /^([A-Za-z0-9._-]{1,100}?)(\.[A-Za-z0-9]{1,8})?$/.exec(base);
    if (!m) throw errors.validation('filename: use letters, digits, dot, dash and underscore');
    const stem = m[1]!.toLowerCase();
    const ext = (m[2] ?? '.pt').toLowerCase();
    const uploadId = newId();
    // Versioned name: ul:// downloads are cached by file name on the client (§5.3).
    const storedName = `${model.slug}${stem === 'best' ? '' : `-${stem.replace(/[^a-z0-9-]+/g, '-')}`}-${uploadId.slice(0, 8)}${ext}`;
    const key = `users/${model.userId}/models/${model.id}/${storedName}`;
    // Clients without a runId never send checkpoint_saved: their upload is promoted when it lands.
    const mode = body.runId ? 'm' : 'a';
    const path = `${UPLOAD_PREFIX}${model.id}/${uploadId}/${mode}/${storedName}`;
    return { uploadUrl: signCompatUrl(ctx, baseUrlFor(ctx, req), path, UPLOAD_URL_TTL_MS), gcsPath: key, uploadPath: key };
  });

  // ---- the upload sink (§4.6 step 2)
  async function acceptUpload(target: string, body: Readable, declared: number | undefined): Promise<{ status: number; body: unknown }> {
    const verdict = verifyCompatUrl(ctx, target);
    if (verdict !== 'ok') {
      body.resume();
      return { status: verdict === 'expired' ? 410 : 403, body: { error: verdict === 'expired' ? 'This upload link has expired' : 'This upload link is invalid' } };
    }
    const path = target.split('?', 1)[0]!;
    const [modelId, , mode, storedName] = path.slice(UPLOAD_PREFIX.length).split('/').map(decodeURIComponent);
    const model = modelId ? await modelsRepository.byId(ctx.db, modelId) : null;
    const owner = model ? await usersRepository.byId(ctx.db, model.userId) : null;
    if (!model || model.deletedAt || !owner || !storedName) {
      body.resume();
      return { status: 404, body: { error: 'Model not found' } };
    }
    const key = `users/${model.userId}/models/${model.id}/${storedName}`;
    const kind = storedKind(model, storedName);
    const replacing = (await fileOf(ctx, model.id, kind))?.bytes ?? 0;
    try {
      const { bytes } = await streamIntoStore(ctx, owner, key, body, { declaredBytes: declared, replacing, maxBytes: MAX_UPLOAD_BYTES });
      if (mode === 'a') await promoteFile(ctx, model, { kind, key, name: storedName, bytes, epoch: null });
      return { status: 200, body: { ok: true, bytes } };
    } catch (err) {
      if (err instanceof AppError) return { status: err.statusCode, body: { error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) } };
      // The client went away mid-body: nothing was stored (atomic put); its retry sends it again.
      ctx.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
      return { status: 400, body: { error: 'The upload did not complete; send it again' } };
    }
  }

  // Well-formed PUTs (and app.inject) come through Fastify; see lenient-upload.ts for the quirky ones.
  // logLevel: the signed upload URL is a credential, kept out of the info-level request log.
  app.put(`${UPLOAD_PREFIX}*`, { logLevel: 'warn' }, async (req: FastifyRequest, reply: FastifyReply) => {
    const declared = req.headers['content-length'] !== undefined && req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : undefined;
    const res = await acceptUpload(req.url, req.raw, declared);
    return reply.status(res.status).send(res.body);
  });
  installLenientUploadSink(
    app.server,
    UPLOAD_PREFIX,
    async (raw: RawUploadRequest) => {
      if (raw.method !== 'PUT') {
        raw.body.resume();
        return { status: 400, body: { error: 'Use PUT' } };
      }
      return acceptUpload(raw.target, raw.body, raw.contentLength);
    },
    app.log,
  );

  // ---- ul:// resolution, generation 1 (HEAD → 302 Location, §5.1) and generation 2 (SDK JSON, §5.2)
  function viewerOf(req: FastifyRequest) {
    // Anonymous reads of public items are fine; a presented but bad key is a 401 (client: "invalid API key").
    if (req.credentialError) requireUser(req);
    return req.principal?.user.id ?? null;
  }

  async function ndjsonUrl(req: FastifyRequest, owner: string, slug: string) {
    const dataset = await datasetBySlug(ctx, viewerOf(req), owner, slug);
    if (!dataset.storageKey) throw errors.conflict('error/dataset-not-ready', 'Resource not ready: the dataset is still processing');
    return signCompatUrl(ctx, baseUrlFor(ctx, req), `/v1/compat/datasets/${dataset.id}/${encodeURIComponent(dataset.slug)}.ndjson`);
  }

  async function modelBySlugs(req: FastifyRequest, owner: string, projectSlug: string, modelSlug: string) {
    const viewer = viewerOf(req);
    const ownerRow = await usersRepository.byUsername(ctx.db, owner);
    if (!ownerRow || ownerRow.deletedAt) throw errors.notFound('Model');
    const [project] = await ctx.db.select().from(projects).where(and(eq(projects.userId, ownerRow.id), eq(projects.slug, projectSlug))).limit(1);
    const model = project ? await modelsRepository.bySlug(ctx.db, ownerRow.id, project.id, modelSlug) : null;
    if (!model || !canRead(viewer, model, { viaParent: project })) throw errors.notFound('Model');
    const best = await fileOf(ctx, model.id, 'best');
    if (!best) throw errors.conflict('error/model-not-ready', 'Resource not ready: the model has no weights yet');
    const url = fileUrl(best, { secret: ctx.secret, baseUrl: baseUrlFor(ctx, req), now: ctx.clock.now() }, MODEL_URL_TTL_MS);
    return { best, url };
  }

  const slugParams = z.object({ owner: z.string().max(64), dataset: z.string().max(128) });
  const modelParams = z.object({ owner: z.string().max(64), project: z.string().max(128), model: z.string().max(128) });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/webhooks/datasets/:owner/:dataset/export',
    schema: { tags: ['compat'], params: slugParams },
    handler: async (req, reply) => {
      const p = req.params as z.infer<typeof slugParams>;
      const url = await ndjsonUrl(req, p.owner, p.dataset);
      return reply.code(302).header('location', url).send({ downloadUrl: url });
    },
  });
  app.get('/api/datasets/:owner/:dataset/export', { schema: { tags: ['compat'], params: slugParams } }, async (req) => {
    const p = req.params as z.infer<typeof slugParams>;
    return { downloadUrl: await ndjsonUrl(req, p.owner, p.dataset), cached: false };
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/webhooks/models/:owner/:project/:model/download',
    schema: { tags: ['compat'], params: modelParams },
    handler: async (req, reply) => {
      const p = req.params as z.infer<typeof modelParams>;
      const { url } = await modelBySlugs(req, p.owner, p.project, p.model);
      return reply.code(302).header('location', url).send({ downloadUrl: url });
    },
  });
  app.get('/api/models/:owner/:project/:model/files', { schema: { tags: ['compat'], params: modelParams } }, async (req) => {
    const p = req.params as z.infer<typeof modelParams>;
    const { best, url } = await modelBySlugs(req, p.owner, p.project, p.model);
    return { files: [{ name: best.blobKey.slice(best.blobKey.lastIndexOf('/') + 1), size: best.bytes, downloadUrl: url }] };
  });
}

