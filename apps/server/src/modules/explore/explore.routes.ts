import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, explorePageSchema, exploreQuerySchema } from '@sightline/contracts';
import { errorResponses } from '../../platform/http/schemas.js';
import { explore } from './explore.service.js';

/** The public explore page (ADR 0030): signed in or not, the matrix decides what is listed. */
export async function exploreRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  r.get(
    '/v1/explore',
    { schema: { tags: ['explore'], querystring: exploreQuerySchema, response: { 200: envelope(explorePageSchema), ...errorResponses } } },
    async (req) => ({
      data: await explore(ctx, req.principal?.user.id ?? null, req.query),
    }),
  );
}
