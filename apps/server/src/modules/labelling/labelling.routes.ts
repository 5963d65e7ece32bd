import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  classCountsSchema,
  imageSuggestionsSchema,
  prelabelBodySchema,
  prelabelJobSchema,
  reviewPageSchema,
  reviewQuerySchema,
  suggestionActionBodySchema,
  suggestionActionResultSchema,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, errorSchema } from '../../platform/http/schemas.js';
import { InferenceEngine } from '../inference/index.js';
import { registerPrelabelJob } from './labelling.job.js';
import * as svc from './labelling.service.js';

const idParams = z.object({ id: z.string().max(40) });
const jobParams = idParams.extend({ jobId: z.string().max(40) });
const imageParams = idParams.extend({ imageId: z.string().max(40) });
const oneJob = z.object({ data: prelabelJobSchema });
const actionResult = z.object({ data: suggestionActionResultSchema });
const responses = { ...errorResponses, 422: errorSchema };
const tags = ['labelling'];

/** Model-assisted labelling (ADR 0039): pre-label with a model, suggestions to accept or reject, review filters, class counts. */
export async function labellingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  // Pre-labelling runs on its own engine: a long job keeps its session warm without pushing the predict API's models out.
  const engine = new InferenceEngine({ maxCacheBytes: 256 * 1024 * 1024 });
  app.addHook('onClose', async () => void (await engine.close()));
  registerPrelabelJob(ctx, engine);

  r.post(
    '/v1/datasets/:id/prelabel',
    { config: { auth: 'user' }, schema: { tags, params: idParams, body: prelabelBodySchema, response: { 202: oneJob, ...responses } } },
    async (req, reply) => {
      const job = await svc.startPrelabel(ctx, requireUser(req).user.id, req.params.id, req.body);
      reply.code(202);
      return { data: job };
    },
  );
  r.get(
    '/v1/datasets/:id/prelabel',
    { schema: { tags, params: idParams, response: { 200: z.object({ data: z.array(prelabelJobSchema) }), ...responses } } },
    async (req) => ({ data: await svc.listPrelabelJobs(ctx, viewer(req), req.params.id) }),
  );
  r.get('/v1/datasets/:id/prelabel/:jobId', { schema: { tags, params: jobParams, response: { 200: oneJob, ...responses } } }, async (req) => ({
    data: await svc.getPrelabelJob(ctx, viewer(req), req.params.id, req.params.jobId),
  }));
  r.post(
    '/v1/datasets/:id/prelabel/:jobId/cancel',
    { config: { auth: 'user' }, schema: { tags, params: jobParams, response: { 200: oneJob, ...responses } } },
    async (req) => ({ data: await svc.cancelPrelabel(ctx, requireUser(req).user.id, req.params.id, req.params.jobId) }),
  );

  r.get(
    '/v1/datasets/:id/images/:imageId/suggestions',
    { schema: { tags, params: imageParams, response: { 200: z.object({ data: imageSuggestionsSchema }), ...responses } } },
    async (req) => ({ data: await svc.imageSuggestions(ctx, viewer(req), req.params.id, req.params.imageId) }),
  );
  r.post(
    '/v1/datasets/:id/suggestions/accept',
    { config: { auth: 'user' }, schema: { tags, params: idParams, body: suggestionActionBodySchema, response: { 200: actionResult, ...responses } } },
    async (req) => ({ data: await svc.acceptSuggestions(ctx, requireUser(req).user.id, req.params.id, req.body) }),
  );
  r.post(
    '/v1/datasets/:id/suggestions/reject',
    { config: { auth: 'user' }, schema: { tags, params: idParams, body: suggestionActionBodySchema, response: { 200: actionResult, ...responses } } },
    async (req) => ({ data: await svc.rejectSuggestions(ctx, requireUser(req).user.id, req.params.id, req.body) }),
  );

  r.get(
    '/v1/datasets/:id/review',
    { schema: { tags, params: idParams, querystring: reviewQuerySchema, response: { 200: z.object({ data: reviewPageSchema }), ...responses } } },
    async (req) => ({ data: await svc.reviewImages(ctx, viewer(req), req.params.id, req.query) }),
  );
  r.get(
    '/v1/datasets/:id/class-counts',
    { schema: { tags, params: idParams, response: { 200: z.object({ data: classCountsSchema }), ...responses } } },
    async (req) => ({ data: await svc.datasetClassCounts(ctx, viewer(req), req.params.id) }),
  );
}
