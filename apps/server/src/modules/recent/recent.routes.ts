import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, recentListSchema, recentQuerySchema, searchQuerySchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { recentItems, searchItems } from './recent.service.js';

/** Home's Recent card and the global search of the header (ADR 0018). */
export async function recentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  r.get(
    '/v1/recent',
    {
      config: { auth: 'user' },
      schema: { tags: ['recent'], querystring: recentQuerySchema, response: { 200: envelope(recentListSchema), ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      return { data: { results: await recentItems(ctx, user.id, req.query.limit) } };
    },
  );
  r.get(
    '/v1/search',
    {
      config: { auth: 'user' },
      schema: { tags: ['recent'], querystring: searchQuerySchema, response: { 200: envelope(recentListSchema), ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      return { data: { results: await searchItems(ctx, user.id, req.query.q, req.query.limit) } };
    },
  );
}
