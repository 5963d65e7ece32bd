import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationCountSchema, notificationsPageSchema, notificationsQuery } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import * as svc from './notifications.service.js';

const tags = ['notifications'];
const idParams = z.object({ id: z.string().regex(/^[\w-]{1,40}$/, 'id must be a notification id') });
const countResponse = { 200: z.object({ data: notificationCountSchema }), ...errorResponses };
const recipientOf = (req: FastifyRequest): svc.Recipient => {
  const { user } = requireUser(req);
  return { id: user.id, email: user.email };
};

/**
 * The caller's notification records (ADR 0028): a page of them, the unread count the bell shows,
 * and marking one or all read. Each user reads and marks only their own.
 */
export async function notificationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const auth = { auth: 'user' as const };

  r.get(
    '/v1/notifications',
    { config: auth, schema: { tags, querystring: notificationsQuery, response: { 200: z.object({ data: notificationsPageSchema }), ...errorResponses } } },
    async (req) => ({
      data: await svc.list(ctx, recipientOf(req), req.query),
    }),
  );

  r.get('/v1/notifications/count', { config: auth, schema: { tags, response: countResponse } }, async (req) => ({
    data: { unread: await svc.unreadCount(ctx, recipientOf(req)) },
  }));

  r.post('/v1/notifications/:id/read', { config: auth, schema: { tags, params: idParams, response: countResponse } }, async (req) => ({
    data: { unread: await svc.markRead(ctx, recipientOf(req), req.params.id) },
  }));

  r.post('/v1/notifications/read-all', { config: auth, schema: { tags, response: countResponse } }, async (req) => ({
    data: { unread: await svc.markAllRead(ctx, recipientOf(req)) },
  }));
}
