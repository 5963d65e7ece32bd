import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_DELETION_GRACE_DAYS, userSchema, outboxSchema } from '@sightline/contracts';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { presentUser } from '../users/users.presenter.js';
import { restoreAccount } from '../users/users.service.js';
import * as admin from './admin.service.js';

export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/v1/admin/users', { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.object({ data: z.array(userSchema) }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    return { data: await admin.listUsers(ctx) };
  });

  r.post('/v1/admin/users/:id/restore', { config: { auth: 'admin' }, schema: { tags: ['admin'], params: z.object({ id: z.string().max(40) }), response: { 200: z.object({ data: userSchema }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    return { data: presentUser(await restoreAccount(ctx, req.params.id, ACCOUNT_DELETION_GRACE_DAYS)) };
  });

  /** With no SMTP the outbox is where mails can be read; admins see a warning in the app. */
  r.get('/v1/admin/outbox', { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.object({ data: outboxSchema }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    return { data: await admin.outbox(ctx) };
  });
}
