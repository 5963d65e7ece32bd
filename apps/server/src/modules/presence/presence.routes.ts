import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guestPresenceSchema, presenceSchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { getGuestPresence, getPresence } from './presence.service.js';

export async function presenceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  r.get('/v1/users/me/presence', { schema: { tags: ['users'], response: { 200: z.object({ data: presenceSchema }) } } }, async (req) => {
    const { user } = requireUser(req);
    return { data: await getPresence(ctx, user.id) };
  });

  r.get(
    '/v1/presence/guests',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.object({ data: guestPresenceSchema }), ...errorResponses } } },
    async () => ({
      data: await getGuestPresence(ctx),
    }),
  );
}
