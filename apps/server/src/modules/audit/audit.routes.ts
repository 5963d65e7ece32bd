import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { auditCsvHeader, auditCsvLine } from './audit.presenter.js';
import * as audit from './audit.service.js';

/** Read-only by design: the audit log has no update or delete route (and its table refuses both). */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['admin'];

  r.get(
    '/v1/admin/audit',
    { config: { auth: 'admin' }, schema: { tags, querystring: auditQuerySchema, response: { 200: z.object({ data: auditPageSchema }), ...errorResponses } } },
    async (req) => ({
      data: await audit.listAudit(ctx, req.query),
    }),
  );

  r.get(
    '/v1/admin/audit/export',
    {
      config: { auth: 'admin' },
      schema: { tags, querystring: auditQuerySchema.omit({ limit: true }), produces: ['text/csv'], response: { ...errorResponses } },
    },
    async (req, reply) => {
      const lines = (async function* () {
        yield auditCsvHeader();
        for await (const e of audit.allAudit(ctx, req.query)) yield auditCsvLine(e);
      })();
      return (reply as FastifyReply)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${ctx.clock.now().toISOString().slice(0, 10)}.csv"`)
        .send(Readable.from(lines));
    },
  );

  r.get(
    '/v1/users/me/security-events',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        querystring: z.object({ before: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.object({ data: auditPageSchema }), ...errorResponses },
      },
    },
    async (req) => ({ data: await audit.securityEvents(ctx, requireUser(req).user.id, req.query.before, req.query.limit) }),
  );
}
