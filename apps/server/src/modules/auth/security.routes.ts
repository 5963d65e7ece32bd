import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authFailuresResponse } from '@sightline/contracts';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { recentFailures } from './throttle.service.js';

/** Admins' view of repeated authentication failures and current blocks (ADR 0014). */
export async function securityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  r.get(
    '/v1/admin/security/failures',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }),
        response: { 200: authFailuresResponse, ...errorResponses },
      },
    },
    async (req) => {
      requireAdmin(req);
      return { data: await recentFailures(ctx, req.query.limit) };
    },
  );
}
