import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createEvaluationBodySchema,
  evaluationMistakesQuerySchema,
  evaluationMistakesSchema,
  evaluationSchema,
  projectEvaluationsSchema,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, errorSchema } from '../../platform/http/schemas.js';
import { InferenceEngine } from '../inference/index.js';
import { registerEvaluationJob } from './evaluation.job.js';
import * as ev from './evaluation.service.js';

const idParams = z.object({ id: z.string().max(40) });
const one = z.object({ data: evaluationSchema });
const responses = { ...errorResponses, 422: errorSchema };

/** Evaluations (ADR 0035): start one on a model, follow it, cancel it, read its scores and the images it gets wrong. */
export async function evaluationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  // Evaluations run on their own engine: a long evaluation keeps its session warm without pushing the predict API's models out.
  const engine = new InferenceEngine({ maxCacheBytes: 256 * 1024 * 1024 });
  app.addHook('onClose', async () => void (await engine.close()));
  registerEvaluationJob(ctx, engine);

  r.post(
    '/v1/models/:id/evaluations',
    {
      config: { auth: 'user' },
      schema: { tags: ['evaluations'], params: idParams, body: createEvaluationBodySchema, response: { 200: one, 202: one, ...responses } },
    },
    async (req, reply) => {
      const evaluation = await ev.startEvaluation(ctx, requireUser(req).user.id, req.params.id, req.body);
      // 202: a job was queued (or one of these files is on its way); 200: the stored result.
      reply.code(evaluation.status === 'completed' ? 200 : 202);
      return { data: evaluation };
    },
  );

  r.get(
    '/v1/models/:id/evaluations',
    { schema: { tags: ['evaluations'], params: idParams, response: { 200: z.object({ data: z.array(evaluationSchema) }), ...responses } } },
    async (req) => ({
      data: await ev.listModelEvaluations(ctx, viewer(req), req.params.id),
    }),
  );

  r.get('/v1/evaluations/:id', { schema: { tags: ['evaluations'], params: idParams, response: { 200: one, ...responses } } }, async (req) => ({
    data: await ev.getEvaluation(ctx, viewer(req), req.params.id),
  }));

  r.post(
    '/v1/evaluations/:id/cancel',
    { config: { auth: 'user' }, schema: { tags: ['evaluations'], params: idParams, response: { 200: one, ...responses } } },
    async (req) => ({
      data: await ev.cancelEvaluation(ctx, requireUser(req).user.id, req.params.id),
    }),
  );

  r.get(
    '/v1/evaluations/:id/mistakes',
    {
      schema: {
        tags: ['evaluations'],
        params: idParams,
        querystring: evaluationMistakesQuerySchema,
        response: { 200: z.object({ data: evaluationMistakesSchema }), ...responses },
      },
    },
    async (req) => ({ data: await ev.evaluationMistakes(ctx, viewer(req), req.params.id, req.query) }),
  );

  r.get(
    '/v1/projects/:id/evaluations',
    { schema: { tags: ['evaluations'], params: idParams, response: { 200: z.object({ data: projectEvaluationsSchema }), ...responses } } },
    async (req) => ({
      data: await ev.projectEvaluations(ctx, viewer(req), req.params.id),
    }),
  );
}
