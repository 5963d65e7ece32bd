import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUpgradeRequestListSchema,
  adminUpgradeRequestsQuery,
  envelope,
  myUpgradeRequestSchema,
  planOfferSchema,
  supportContactBody,
  supportContactSchema,
  upgradeRequestBody,
  upgradeRequestSchema,
} from '@sightline/contracts';
import { requireAdmin, requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { allPlanLimits } from '../billing/billing.plans.js';
import * as svc from './support.service.js';

const idParams = z.object({ id: z.string().min(1).max(40) });

/** Reaching the admins (ADR 0030): upgrade requests and the admin contact of Support. */
export async function supportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.post(
    '/v1/billing/upgrade-requests',
    { config: { auth: 'user' }, schema: { tags: ['billing'], body: upgradeRequestBody, response: { 200: envelope(upgradeRequestSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.requestUpgrade(ctx, requireUser(req).user.id, req.body),
    }),
  );
  r.get(
    '/v1/billing/upgrade-requests/mine',
    { config: { auth: 'user' }, schema: { tags: ['billing'], response: { 200: envelope(myUpgradeRequestSchema), ...errorResponses } } },
    async (req) => ({
      data: { request: await svc.myOpenRequest(ctx, requireUser(req).user.id) },
    }),
  );
  // The plan comparison reads every plan's limits as this server sets them (billing on or off).
  r.get(
    '/v1/billing/plans',
    { config: { auth: 'user' }, schema: { tags: ['billing'], response: { 200: envelope(z.array(planOfferSchema)), ...errorResponses } } },
    async (req) => {
      requireUser(req);
      return { data: (await allPlanLimits(ctx)).map(({ plan, limits }) => ({ plan, limits })) };
    },
  );
  r.get(
    '/v1/support/contact',
    { config: { auth: 'user' }, schema: { tags: ['support'], response: { 200: envelope(supportContactSchema), ...errorResponses } } },
    async (req) => {
      requireUser(req);
      return { data: await svc.supportContact(ctx) };
    },
  );

  const adminTags = ['admin', 'support'];
  r.get(
    '/v1/admin/upgrade-requests',
    {
      config: { auth: 'admin' },
      schema: { tags: adminTags, querystring: adminUpgradeRequestsQuery, response: { 200: envelope(adminUpgradeRequestListSchema), ...errorResponses } },
    },
    async (req) => {
      requireAdmin(req);
      return { data: await svc.listUpgradeRequests(ctx, req.query.status, req.query.limit) };
    },
  );
  r.post(
    '/v1/admin/upgrade-requests/:id/grant',
    { config: { auth: 'admin' }, schema: { tags: adminTags, params: idParams, response: { 200: envelope(upgradeRequestSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.grantUpgradeRequest(ctx, requireAdmin(req).user.id, req.params.id),
    }),
  );
  r.post(
    '/v1/admin/upgrade-requests/:id/dismiss',
    { config: { auth: 'admin' }, schema: { tags: adminTags, params: idParams, response: { 200: envelope(upgradeRequestSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.dismissUpgradeRequest(ctx, requireAdmin(req).user.id, req.params.id),
    }),
  );
  r.put(
    '/v1/admin/support/contact',
    { config: { auth: 'admin' }, schema: { tags: adminTags, body: supportContactBody, response: { 200: envelope(supportContactSchema), ...errorResponses } } },
    async (req) => ({
      data: await svc.setSupportContact(ctx, requireAdmin(req).user.id, req.body.email),
    }),
  );
}
