import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  adminFeedbackQuerySchema,
  adminFeedbackSchema,
  adminJobSchema,
  adminJobsPageSchema,
  adminJobsQuerySchema,
  adminReasonBody,
  adminRoleBody,
  adminUserDetailSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  analyticsQuerySchema,
  analyticsSeriesSchema,
  analyticsTopSchema,
  userSchema,
  outboxQuerySchema,
  outboxSchema,
} from '@sightline/contracts';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { eventsOverTime, seriesCsv, topByInference } from '../analytics/analytics.service.js';
import { presentUser } from '../users/users.presenter.js';
import * as admin from './admin.service.js';

const idParams = z.object({ id: z.string().max(40) });
const jobParams = z.object({ source: z.enum(['queue', 'agent']), id: z.string().max(40) });
const detail = { 200: z.object({ data: adminUserDetailSchema }), ...errorResponses };
const range = (q: { from: string; to: string }) => ({ from: new Date(q.from), to: new Date(q.to) });

export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  /** Every account, newest first, in keyset pages (ADR 0042); also the billing section's user picker. */
  r.get(
    '/v1/admin/users',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: adminUserListQuerySchema, response: { 200: z.object({ data: adminUserListSchema }), ...errorResponses } },
    },
    async (req) => {
      requireAdmin(req);
      return { data: await admin.listUsers(ctx, req.query) };
    },
  );

  r.post(
    '/v1/admin/users/:id/restore',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], params: z.object({ id: z.string().max(40) }), response: { 200: z.object({ data: userSchema }), ...errorResponses } },
    },
    async (req) => {
      requireAdmin(req);
      return { data: presentUser(await admin.restoreUser(ctx, req.params.id, ACCOUNT_DELETION_GRACE_DAYS)) };
    },
  );

  /** With no SMTP the outbox is where mails can be read; admins see a warning in the app. */
  r.get(
    '/v1/admin/outbox',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: outboxQuerySchema, response: { 200: z.object({ data: outboxSchema }), ...errorResponses } },
    },
    async (req) => {
      requireAdmin(req);
      return { data: await admin.outbox(ctx, req.query) };
    },
  );

  // ---- users: keyset search, detail, roles, disable, delete (grace period), sign out everywhere
  r.get(
    '/v1/admin/users/search',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: adminUsersQuerySchema, response: { 200: z.object({ data: adminUsersPageSchema }), ...errorResponses } },
    },
    async (req) => ({
      data: await admin.searchUsers(ctx, req.query),
    }),
  );
  r.get('/v1/admin/users/:id', { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, response: detail } }, async (req) => ({
    data: await admin.userDetail(ctx, req.params.id),
  }));
  r.post(
    '/v1/admin/users/:id/role',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, body: adminRoleBody, response: detail } },
    async (req) => ({
      data: await admin.setAdminRole(ctx, req.params.id, req.body.grant),
    }),
  );
  r.post(
    '/v1/admin/users/:id/disable',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, body: adminReasonBody.optional(), response: detail } },
    async (req) => ({
      data: await admin.setDisabled(ctx, requireAdmin(req).user.id, req.params.id, true, req.body?.reason),
    }),
  );
  r.post('/v1/admin/users/:id/enable', { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, response: detail } }, async (req) => ({
    data: await admin.setDisabled(ctx, requireAdmin(req).user.id, req.params.id, false),
  }));
  r.post(
    '/v1/admin/users/:id/delete',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, body: adminReasonBody.optional(), response: detail } },
    async (req) => ({
      data: await admin.deleteUser(ctx, requireAdmin(req).user.id, req.params.id, req.body?.reason),
    }),
  );
  r.post('/v1/admin/users/:id/sign-out', { config: { auth: 'admin' }, schema: { tags: ['admin'], params: idParams, response: detail } }, async (req) => ({
    data: await admin.signOutEverywhere(ctx, req.params.id),
  }));

  // ---- analytics (SQL aggregates over analytics_events)
  r.get(
    '/v1/admin/analytics/events',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: analyticsQuerySchema, response: { 200: z.object({ data: analyticsSeriesSchema }), ...errorResponses } },
    },
    async (req) => {
      const { from, to } = range(req.query);
      return { data: await eventsOverTime(ctx, from, to, req.query.interval, req.query.names?.split(',').filter(Boolean)) };
    },
  );
  r.get(
    '/v1/admin/analytics/top',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        querystring: analyticsQuerySchema.pick({ from: true, to: true }),
        response: { 200: z.object({ data: analyticsTopSchema }), ...errorResponses },
      },
    },
    async (req) => {
      const { from, to } = range(req.query);
      return { data: await topByInference(ctx, from, to) };
    },
  );
  r.get(
    '/v1/admin/analytics/export',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], querystring: analyticsQuerySchema, produces: ['text/csv'], response: { ...errorResponses } } },
    async (req, reply) => {
      const { from, to } = range(req.query);
      const csv = seriesCsv(await eventsOverTime(ctx, from, to, req.query.interval, req.query.names?.split(',').filter(Boolean)));
      return (reply as FastifyReply)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="analytics-${req.query.interval}.csv"`)
        .send(csv);
    },
  );

  // ---- jobs of every kind: the platform queue and GPU agents
  r.get(
    '/v1/admin/jobs',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: adminJobsQuerySchema, response: { 200: z.object({ data: adminJobsPageSchema }), ...errorResponses } },
    },
    async (req) => ({
      data: await admin.listJobs(ctx, req.query),
    }),
  );
  r.post(
    '/v1/admin/jobs/:source/:id/retry',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], params: jobParams, response: { 200: z.object({ data: adminJobSchema }), ...errorResponses } } },
    async (req) => ({
      data: await admin.retryJob(ctx, req.params.source, req.params.id),
    }),
  );
  r.post(
    '/v1/admin/jobs/:source/:id/cancel',
    { config: { auth: 'admin' }, schema: { tags: ['admin'], params: jobParams, response: { 200: z.object({ data: adminJobSchema }), ...errorResponses } } },
    async (req) => ({
      data: await admin.cancelJob(ctx, requireAdmin(req).user, req.params.source, req.params.id),
    }),
  );

  // ---- feedback (the feedback dialog's ratings and reviews)
  r.get(
    '/v1/admin/feedback',
    {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], querystring: adminFeedbackQuerySchema, response: { 200: z.object({ data: adminFeedbackSchema }), ...errorResponses } },
    },
    async (req) => ({ data: await admin.feedback(ctx, req.query) }),
  );
}
