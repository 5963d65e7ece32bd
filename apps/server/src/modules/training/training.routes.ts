import type { FastifyInstance, FastifyRequest } from 'fastify';
import { activeRunSchema, consolePageSchema, envelope, epochMetricsSchema } from '@sightline/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { assertSignedRequest, baseUrlFor } from '../../platform/http/signed-links.js';
import { sendBlob, sendBuffer } from './training.files.js';
import { presentConsole, presentResults } from './training.presenter.js';
import * as training from './training.service.js';

const idParams = z.object({ id: z.string().max(40) });
const consoleQuery = z.object({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(1000).default(500) });
const metricsResponse = z.object({ data: z.array(epochMetricsSchema) });
const consoleResponse = consolePageSchema;
const resultsResponse = z.object({ data: z.record(z.string(), z.unknown()).nullable() });
/** The run lifecycle's sweep (ADR 0020): a tenth of the shortest window, at most a minute, so Timeout shows soon after it is due. */
const sweepMs = (w: { startWindowMs: number; silenceWindowMs: number }) => Math.max(500, Math.min(60_000, Math.floor(Math.min(w.startWindowMs, w.silenceWindowMs) / 10)));

/**
 * What the web app reads about a client-reported run (metrics, console, stop), and the signed file
 * routes the ultralytics clients download datasets from.
 */
export async function trainingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;

  // `{data: [{epoch, ...metrics}]}`: the web app's charts and hub-sdk's Models.get_metrics() read the same shape.
  r.get('/v1/models/:id/metrics', { schema: { tags: ['training'], params: idParams, response: { 200: metricsResponse, ...errorResponses } } }, async (req) => ({
    data: await training.trainingMetrics(ctx, viewer(req), req.params.id),
  }));

  r.get('/v1/models/:id/console', { schema: { tags: ['training'], params: idParams, querystring: consoleQuery, response: { 200: consoleResponse, ...errorResponses } } }, async (req) =>
    presentConsole(await training.trainingConsole(ctx, viewer(req), req.params.id, req.query.after, req.query.limit), req.query.limit),
  );

  // Final results of a run as the client reported them (training_complete): results, plots, system, model info.
  r.get('/v1/models/:id/training', { schema: { tags: ['training'], params: idParams, response: { 200: resultsResponse, ...errorResponses } } }, async (req) => ({
    data: presentResults(await training.trainingResults(ctx, viewer(req), req.params.id)),
  }));

  // Active jobs: the caller's training runs, live or just ended (ADR 0020).
  r.get('/v1/training/runs', { config: { auth: 'user' }, schema: { tags: ['training'], response: { 200: envelope(z.array(activeRunSchema)), ...errorResponses } } }, async (req) => ({
    data: await training.activeRuns(ctx, requireUser(req).user.id),
  }));

  r.post('/v1/models/:id/stop', { config: { auth: 'user' }, schema: { tags: ['training'], params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    await training.requestStop(ctx, requireUser(req).user.id, req.params.id);
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
      const access = assertSignedRequest(ctx, req);
      const { datasetId, file } = req.params as { datasetId: string; file: string };
      const found = await training.clientDatasetFile(ctx, datasetId, file, baseUrlFor(ctx, req), access);
      if ('ndjson' in found) return sendBuffer(req, reply, found.ndjson, 'application/x-ndjson');
      return sendBlob(ctx, req, reply, found.zipKey, 'application/zip');
    },
  });

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!ctx.config.jobsEnabled) return;
    timer = setInterval(() => void training.markStaleRuns(ctx).catch((err: unknown) => app.log.warn({ err }, 'stale training sweep failed')), sweepMs(ctx.config.training));
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
