import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { ErrorCode, inferenceEndpointSchema, inferenceUsageSchema, predictResponseSchema } from '@sightline/contracts';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses, errorSchema, ok, okSchema } from '../../platform/http/schemas.js';
import { EndpointManager } from './endpoints.service.js';
import { InferenceEngine, type DecodedImage } from './inference.engine.js';
import { readPredictRequest } from './inference.params.js';
import { loadModelForInference, predictWith, presentPrediction, recordInference, serializePrediction, type PredictAnswer } from './inference.service.js';
import { monthlyUsage, QuotaMeter, type RateDecision } from './rate-limit.js';

const endpointSchema = inferenceEndpointSchema;
type ZodSerializerSchema = Parameters<typeof serializerCompiler>[0]['schema'];

/**
 * Predict answers go out uncompressed (ADR 0041): they are small except a classifier's list of names (13 KB for
 * 1,000 classes), and compressing that stream cost every call ~0.26 ms of CPU and a round trip through the thread
 * pool, a fixed cost the engine's own work (a few ms) could not hide.
 */
const PREDICT_COMPRESS = false;

/**
 * Predict answers (200) are written by serializePrediction, the same JSON as the schema's serializer without its walk
 * over a classifier's 1,000 names (ADR 0041); errors, and the answer it declines, by the schema's.
 */
const predictSerializer = (route: FastifyRouteSchemaDef<unknown>) => {
  const bySchema = serializerCompiler(route as FastifyRouteSchemaDef<ZodSerializerSchema>);
  if (String(route.httpStatus) !== '200') return bySchema;
  return (data: unknown) => serializePrediction(data as PredictAnswer) ?? bySchema(data);
};

function rateHeaders(reply: FastifyReply, d: RateDecision) {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', d.remaining);
  reply.header('x-ratelimit-reset', d.reset);
  if (!d.allowed) reply.header('retry-after', d.retryAfter);
}

export async function inferenceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const engine = new InferenceEngine({ maxCacheBytes: 512 * 1024 * 1024 });
  const endpoints = new EndpointManager(ctx);
  const quota = new QuotaMeter(ctx);
  app.addHook('onClose', async () => {
    await quota.close();
    await endpoints.close();
    await engine.close();
  });

  /**
   * Shared inference, compatible with HUB's: multipart `file` + imgsz/conf/iou; x-api-key or the
   * session. Quota per plan with X-RateLimit-* headers; a 429 carries Retry-After.
   */
  r.post(
    '/v1/predict/:modelId',
    {
      config: { auth: 'user', compress: PREDICT_COMPRESS },
      serializerCompiler: predictSerializer,
      schema: {
        tags: ['inference'],
        params: z.object({ modelId: z.string().max(40) }),
        consumes: ['multipart/form-data'],
        response: { 200: predictResponseSchema, ...errorResponses, 429: errorSchema },
      },
    },
    async (req, reply) => {
      const principal = requireUser(req);
      const { model, modelPath } = await loadModelForInference(ctx, principal.user.id, req.params.modelId);
      const { image, params } = await readPredictRequest(req);
      // Authorization and the input checks come first; the decode then runs on the thread pool while the quota waits
      // for the database, when it has to (ADR 0041). Its result, or its error, counts only once the call is admitted.
      let decoding: Promise<DecodedImage> | undefined;
      const decodeAhead = () => {
        decoding = engine.decode(image);
        decoding.catch(() => undefined);
      };
      const decision = await quota.consume(principal.user, principal.apiKeyId ?? null, decodeAhead);
      rateHeaders(reply, decision);
      if (!decision.allowed) {
        throw new AppError(
          429,
          ErrorCode.RateLimited,
          `Inference limit reached (${decision.limit} per ${decision.window} on your plan). Try again in ${decision.retryAfter} s.`,
          { retryAfter: decision.retryAfter },
        );
      }
      const prediction = await predictWith(engine, modelPath, decoding ?? image, params);
      recordInference(ctx, principal.user.id, model.id, 'shared');
      return presentPrediction(prediction, model);
    },
  );

  r.get(
    '/v1/users/me/inference-usage',
    { config: { auth: 'user' }, schema: { tags: ['inference'], response: { 200: z.object({ data: inferenceUsageSchema }), ...errorResponses } } },
    async (req) => ({ data: await monthlyUsage(ctx, requireUser(req).user, quota) }),
  );

  const present = (row: { id: string; modelId: string; status: string; error: string | null; createdAt: Date }) => ({
    id: row.id,
    modelId: row.modelId,
    status: row.status,
    error: row.error,
    url: `/v1/endpoints/${row.id}/predict`,
    created: row.createdAt.toISOString(),
  });

  r.get(
    '/v1/models/:id/endpoint',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['inference'],
        params: z.object({ id: z.string().max(40) }),
        response: { 200: z.object({ data: endpointSchema.nullable() }), ...errorResponses },
      },
    },
    async (req) => {
      const row = await endpoints.liveFor(requireUser(req).user, req.params.id);
      return { data: row ? present(row) : null };
    },
  );
  r.post(
    '/v1/models/:id/endpoint',
    {
      config: { auth: 'user' },
      schema: { tags: ['inference'], params: z.object({ id: z.string().max(40) }), response: { 201: z.object({ data: endpointSchema }), ...errorResponses } },
    },
    async (req, reply) => {
      const row = await endpoints.start(requireUser(req).user, req.params.id);
      return reply.status(201).send({ data: present(row) });
    },
  );
  r.delete(
    '/v1/models/:id/endpoint',
    { config: { auth: 'user' }, schema: { tags: ['inference'], params: z.object({ id: z.string().max(40) }), response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await endpoints.stop(requireUser(req).user, req.params.id);
      return ok;
    },
  );
  r.post(
    '/v1/endpoints/:id/predict',
    {
      config: { auth: 'user', compress: PREDICT_COMPRESS },
      serializerCompiler: predictSerializer,
      schema: {
        tags: ['inference'],
        params: z.object({ id: z.string().max(40) }),
        consumes: ['multipart/form-data'],
        response: { 200: predictResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { user } = requireUser(req);
      const { image, params } = await readPredictRequest(req);
      const { row, model, prediction } = await endpoints.predict(user, req.params.id, image, params);
      recordInference(ctx, user.id, row.modelId, 'dedicated');
      return presentPrediction(prediction, model);
    },
  );
}
