import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storageUsageSchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { storageRemaining } from './usage.service.js';

/** The signed-in user's storage: used, reserved and left under the plan. */
export async function storageRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get(
    '/v1/users/me/storage',
    { config: { auth: 'user' }, schema: { tags: ['users'], response: { 200: z.object({ data: storageUsageSchema }), ...errorResponses } } },
    async (req) => ({
      data: await storageRemaining(ctx, requireUser(req).user),
    }),
  );
}
