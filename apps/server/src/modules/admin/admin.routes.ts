import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { ACCOUNT_DELETION_GRACE_DAYS, userSchema } from '@sightline/contracts';
import { mailOutbox, users } from '../../platform/db/schema.js';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { presentUser } from '../users/users.presenter.js';
import { restoreAccount } from '../users/users.service.js';

export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/v1/admin/users', { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.object({ data: z.array(userSchema) }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    const rows = await ctx.db.select().from(users).orderBy(desc(users.createdAt)).limit(500);
    return { data: rows.map((u) => presentUser(u)) };
  });

  r.post('/v1/admin/users/:id/restore', { config: { auth: 'admin' }, schema: { tags: ['admin'], params: z.object({ id: z.string().max(40) }), response: { 200: z.object({ data: userSchema }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    return { data: presentUser(await restoreAccount(ctx, req.params.id, ACCOUNT_DELETION_GRACE_DAYS)) };
  });

  /** With no SMTP the outbox is where mails can be read; admins see a warning in the app. */
  r.get('/v1/admin/outbox', { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.object({ data: z.object({ mailEnabled: z.boolean(), mails: z.array(z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), created: z.string(), sent: z.string().nullable(), error: z.string().nullable() })) }) }), ...errorResponses } } }, async (req) => {
    requireAdmin(req);
    const rows = await ctx.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(200);
    return {
      data: {
        mailEnabled: ctx.mailer.enabled,
        mails: rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, created: m.createdAt.toISOString(), sent: m.sentAt?.toISOString() ?? null, error: m.error })),
      },
    };
  });
}
