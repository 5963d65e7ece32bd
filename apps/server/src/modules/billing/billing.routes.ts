import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCreditBody,
  adminPlanRowSchema,
  adminSetPlanBody,
  adminUserBillingSchema,
  billingRecordSchema,
  billingSummarySchema,
  cancelSubscriptionBody,
  checkoutProBody,
  envelope,
  historyPageSchema,
  historyQuerySchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  modelCostSchema,
  planLimitsPatchSchema,
  planSchema,
  recordsQuerySchema,
  redirectSchema,
  topUpBody,
} from '@sightline/contracts';
import { requireAdmin, requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { allPlanLimits, updatePlanLimits } from './billing.plans.js';
import {
  adminCredit,
  adminSetPlan,
  adminUserBilling,
  billingHistory,
  billingRecords,
  billingSummary,
  checkoutPro,
  checkoutTopUp,
  ledgerPage,
  modelCost,
  portal,
  setCancelAtPeriodEnd,
} from './billing.service.js';
import { handleStripeWebhook } from './billing.webhook.js';

const tags = ['billing'];
const adminTags = ['admin', 'billing'];
const idParams = z.object({ id: z.string().max(40) });
const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Billing: the spec §7 cloud functions as HTTP endpoints, the wallet ledger, admin billing. */
export async function billingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/v1/billing', { config: { auth: 'user' }, schema: { tags, response: { 200: envelope(billingSummarySchema), ...errorResponses } } }, async (req) => ({
    data: await billingSummary(ctx, requireUser(req).user.id),
  }));

  r.get(
    '/v1/billing/ledger',
    { config: { auth: 'user' }, schema: { tags, querystring: ledgerQuerySchema, response: { 200: envelope(ledgerPageSchema), ...errorResponses } } },
    async (req) => ({
      data: await ledgerPage(ctx, requireUser(req).user.id, req.query),
    }),
  );

  r.post(
    '/v1/billing/checkout/pro',
    { config: { auth: 'user' }, schema: { tags, body: checkoutProBody, response: { 200: envelope(redirectSchema), ...errorResponses } } },
    async (req) => ({
      data: await checkoutPro(ctx, requireUser(req).user.id, req.body.interval, origin(req)),
    }),
  );

  r.post('/v1/billing/portal', { config: { auth: 'user' }, schema: { tags, response: { 200: envelope(redirectSchema), ...errorResponses } } }, async (req) => ({
    data: await portal(ctx, requireUser(req).user.id, origin(req)),
  }));

  r.post(
    '/v1/billing/checkout/top-up',
    { config: { auth: 'user' }, schema: { tags, body: topUpBody, response: { 200: envelope(redirectSchema), ...errorResponses } } },
    async (req) => ({
      data: await checkoutTopUp(ctx, requireUser(req).user.id, req.body, origin(req)),
    }),
  );

  r.get(
    '/v1/billing/history',
    { config: { auth: 'user' }, schema: { tags, querystring: historyQuerySchema, response: { 200: envelope(historyPageSchema), ...errorResponses } } },
    async (req) => ({
      data: await billingHistory(ctx, requireUser(req).user.id, req.query),
    }),
  );

  r.post(
    '/v1/billing/subscription',
    { config: { auth: 'user' }, schema: { tags, body: cancelSubscriptionBody, response: { 200: envelope(billingSummarySchema), ...errorResponses } } },
    async (req) => ({
      data: await setCancelAtPeriodEnd(ctx, requireUser(req).user.id, req.body.cancelAtPeriodEnd),
    }),
  );

  r.get(
    '/v1/billing/records',
    {
      config: { auth: 'user' },
      schema: { tags, querystring: recordsQuerySchema, response: { 200: envelope(z.array(billingRecordSchema)), ...errorResponses } },
    },
    async (req) => ({
      data: await billingRecords(ctx, requireUser(req).user.id, req.query.modelId),
    }),
  );

  r.get(
    '/v1/billing/models/:id/cost',
    { config: { auth: 'user' }, schema: { tags, params: idParams, response: { 200: envelope(modelCostSchema), ...errorResponses } } },
    async (req) => ({
      data: await modelCost(ctx, requireUser(req).user.id, req.params.id),
    }),
  );

  // Stripe signs the exact bytes it sent: this route alone reads its JSON body raw.
  await app.register(async (raw) => {
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/v1/billing/stripe/webhook',
      {
        schema: { tags, hide: false, response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean(), outcome: z.string() }), ...errorResponses } },
      },
      async (req) => {
        const sig = req.headers['stripe-signature'];
        return handleStripeWebhook(ctx, Buffer.isBuffer(req.body) ? req.body : Buffer.from(String(req.body ?? '')), Array.isArray(sig) ? sig[0] : sig);
      },
    );
  });

  // ---- admin
  r.get(
    '/v1/admin/billing/plans',
    { config: { auth: 'admin' }, schema: { tags: adminTags, response: { 200: envelope(z.array(adminPlanRowSchema)), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: await allPlanLimits(ctx) };
    },
  );

  r.patch(
    '/v1/admin/billing/plans/:plan',
    {
      config: { auth: 'admin' },
      schema: {
        tags: adminTags,
        params: z.object({ plan: planSchema }),
        body: planLimitsPatchSchema,
        response: { 200: envelope(adminPlanRowSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await updatePlanLimits(ctx, requireAdmin(req).user.id, req.params.plan, req.body) }),
  );

  r.get(
    '/v1/admin/billing/users/:id',
    { config: { auth: 'admin' }, schema: { tags: adminTags, params: idParams, response: { 200: envelope(adminUserBillingSchema), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: await adminUserBilling(ctx, req.params.id) };
    },
  );

  r.post(
    '/v1/admin/billing/users/:id/plan',
    {
      config: { auth: 'admin' },
      schema: { tags: adminTags, params: idParams, body: adminSetPlanBody, response: { 200: envelope(adminUserBillingSchema), ...errorResponses } },
    },
    async (req) => ({ data: await adminSetPlan(ctx, requireAdmin(req).user.id, req.params.id, req.body.plan, req.body.reason) }),
  );

  r.post(
    '/v1/admin/billing/users/:id/credit',
    {
      config: { auth: 'admin' },
      schema: { tags: adminTags, params: idParams, body: adminCreditBody, response: { 200: envelope(adminUserBillingSchema), ...errorResponses } },
    },
    async (req) => ({ data: await adminCredit(ctx, requireAdmin(req).user.id, req.params.id, req.body.amount, req.body.reason) }),
  );
}
