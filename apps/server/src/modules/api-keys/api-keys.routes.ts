import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeySchema, createApiKeyBody, createdApiKeySchema } from '@sightline/contracts';
import { requireSession, requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

export async function apiKeysRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get(
    '/v1/api-keys',
    { config: { auth: 'user' }, schema: { tags: ['api-keys'], response: { 200: z.object({ data: z.array(apiKeySchema) }), ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      return { data: await listApiKeys(ctx, user.id) };
    },
  );

  // Keys are made from a browser session only: a leaked key must not mint more keys.
  r.post(
    '/v1/api-keys',
    {
      config: { auth: 'session' },
      schema: { tags: ['api-keys'], body: createApiKeyBody.optional(), response: { 201: z.object({ data: createdApiKeySchema }), ...errorResponses } },
    },
    async (req, reply) => {
      const { user } = requireSession(req);
      const created = await createApiKey(ctx, user.id, req.body?.name ?? 'API key');
      return reply.status(201).send({ data: created });
    },
  );

  r.delete(
    '/v1/api-keys/:id',
    { config: { auth: 'user' }, schema: { tags: ['api-keys'], params: z.object({ id: z.string().max(40) }), response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await revokeApiKey(ctx, user.id, req.params.id);
      return ok;
    },
  );
}
