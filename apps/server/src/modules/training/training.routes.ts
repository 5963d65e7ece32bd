import type { FastifyInstance, FastifyRequest } from 'fastify';
import { activeRunSchema, consolePageSchema, envelope, epochMetricsSchema } from '@sightline/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { presentConsole, presentResults } from './training.presenter.js';
import { scheduleStaleSweep } from './training.sweep.js';
import * as web from './training.web.js';

const idParams = z.object({ id: z.string().max(40) });
const consoleQuery = z.object({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(1000).default(500) });
const metricsResponse = z.object({ data: z.array(epochMetricsSchema) });
const consoleResponse = consolePageSchema;
const resultsResponse = z.object({ data: z.record(z.string(), z.unknown()).nullable() });

/**
 * What the web app reads about a run (metrics, console, results, Active jobs) and its Stop button.
 * What the clients report and download is compat/ (over training.service).
 */
export async function trainingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;

  // `{data: [{epoch, ...metrics}]}`: the web app's charts and hub-sdk's Models.get_metrics() read the same shape.
  r.get('/v1/models/:id/metrics', { schema: { tags: ['training'], params: idParams, response: { 200: metricsResponse, ...errorResponses } } }, async (req) => ({
    data: await web.trainingMetrics(ctx, viewer(req), req.params.id),
  }));

  r.get(
    '/v1/models/:id/console',
    { schema: { tags: ['training'], params: idParams, querystring: consoleQuery, response: { 200: consoleResponse, ...errorResponses } } },
    async (req) => presentConsole(await web.trainingConsole(ctx, viewer(req), req.params.id, req.query.after, req.query.limit), req.query.limit),
  );

  // Final results of a run as the client reported them (training_complete): results, plots, system, model info.
  r.get(
    '/v1/models/:id/training',
    { schema: { tags: ['training'], params: idParams, response: { 200: resultsResponse, ...errorResponses } } },
    async (req) => ({
      data: presentResults(await web.trainingResults(ctx, viewer(req), req.params.id)),
    }),
  );

  // Active jobs: the caller's training runs, live or just ended (ADR 0020).
  r.get(
    '/v1/training/runs',
    { config: { auth: 'user' }, schema: { tags: ['training'], response: { 200: envelope(z.array(activeRunSchema)), ...errorResponses } } },
    async (req) => ({
      data: await web.activeRuns(ctx, requireUser(req).user.id),
    }),
  );

  r.post(
    '/v1/models/:id/stop',
    { config: { auth: 'user' }, schema: { tags: ['training'], params: idParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await web.requestStop(ctx, requireUser(req).user.id, req.params.id);
      return ok;
    },
  );

  scheduleStaleSweep(app);
}
