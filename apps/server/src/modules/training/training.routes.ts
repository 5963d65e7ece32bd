import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { readableModel } from '../models/models.service.js';
import { datasetById, datasetNdjson, datasetZipKey, datasetZipName } from './training.datasets.js';
import { assertSignedRequest, baseUrlFor, sendBlob, sendBuffer } from './training.files.js';
import { listConsole, listMetrics, markStaleRuns, requestStop, trainingRepository } from './training.service.js';

const idParams = z.object({ id: z.string().max(40) });
const SWEEP_MS = 60_000;

/**
 * What the web app reads about a client-reported run (metrics, console, stop), and the signed file
 * routes the ultralytics clients download datasets from.
 */
export async function trainingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: { principal: { user: { id: string } } | null }) => req.principal?.user.id ?? null;

  // `{data: [{epoch, ...metrics}]}`: the web app's charts and hub-sdk's Models.get_metrics() read the same shape.
  r.get(
    '/v1/models/:id/metrics',
    { schema: { tags: ['training'], params: idParams, response: { 200: z.object({ data: z.array(z.object({ epoch: z.number() }).catchall(z.unknown())) }), ...errorResponses } } },
    async (req) => {
      const model = await readableModel(ctx, viewer(req), req.params.id);
      return { data: await listMetrics(ctx, model.id) };
    },
  );

  r.get(
    '/v1/models/:id/console',
    {
      schema: {
        tags: ['training'],
        params: idParams,
        querystring: z.object({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(1000).default(500) }),
        response: {
          200: z.object({ data: z.array(z.object({ chunkId: z.number(), content: z.string(), lineCount: z.number(), created: z.string() })), next: z.number().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const model = await readableModel(ctx, viewer(req), req.params.id);
      // Console text shows local paths of the training machine: only the owner sees it.
      if (model.userId !== viewer(req)) throw errors.forbidden('Only the owner can read the training console');
      const rows = await listConsole(ctx, model.id, req.query.after, req.query.limit);
      return {
        data: rows.map((c) => ({ chunkId: c.chunkId, content: c.content, lineCount: c.lineCount, created: c.created.toISOString() })),
        next: rows.length === req.query.limit ? rows[rows.length - 1]!.chunkId : null,
      };
    },
  );

  // Final results of a run as the client reported them (training_complete): results, plots, system, model info.
  r.get('/v1/models/:id/training', { schema: { tags: ['training'], params: idParams, response: { 200: z.object({ data: z.record(z.string(), z.unknown()).nullable() }), ...errorResponses } } }, async (req) => {
    const model = await readableModel(ctx, viewer(req), req.params.id);
    const row = await trainingRepository.get(ctx.db, model.id);
    if (!row) return { data: null };
    return {
      data: {
        protocol: row.protocol,
        outcome: row.outcome,
        epochsTotal: row.epochsTotal,
        bestEpoch: row.bestEpoch,
        bestFitness: row.bestFitness,
        finalMetrics: row.finalMetrics,
        results: row.results,
        plots: row.plots,
        modelInfo: row.modelInfo,
        // Machine details (paths, hostnames) stay with the owner.
        system: model.userId === viewer(req) ? row.system : null,
        environment: model.userId === viewer(req) ? row.environment : null,
      },
    };
  });

  r.post('/v1/models/:id/stop', { config: { auth: 'user' }, schema: { tags: ['training'], params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    const { user } = requireUser(req);
    await requestStop(ctx, user.id, req.params.id);
    return ok;
  });

  /**
   * Signed dataset files for the clients (no auth header on downloads): `<id>-<name>.zip` (HUB) and
   * `<slug>.ndjson` (Platform; its image URLs point at /v1/datasets/:id/images/:imageId/raw).
   */
  app.route({
    method: ['GET', 'HEAD'],
    url: '/v1/compat/datasets/:datasetId/:file',
    // Signed URLs are credentials: keep them out of the info-level request log.
    logLevel: 'warn',
    schema: { tags: ['compat'], params: z.object({ datasetId: z.string().max(40), file: z.string().max(300) }) },
    handler: async (req, reply) => {
      assertSignedRequest(ctx, req);
      const { datasetId, file } = req.params as { datasetId: string; file: string };
      const dataset = await datasetById(ctx, datasetId);
      if (!dataset || dataset.deletedAt) throw errors.notFound('Dataset');
      if (file.endsWith('.ndjson')) return sendBuffer(req, reply, await datasetNdjson(ctx, dataset, baseUrlFor(ctx, req)), 'application/x-ndjson');
      if (file !== datasetZipName(dataset)) throw errors.notFound('File');
      return sendBlob(ctx, req, reply, await datasetZipKey(ctx, dataset), 'application/zip');
    },
  });

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!ctx.config.jobsEnabled) return;
    timer = setInterval(() => void markStaleRuns(ctx).catch((err: unknown) => app.log.warn({ err }, 'stale training sweep failed')), SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
