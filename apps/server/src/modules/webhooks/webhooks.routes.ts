import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdWebhookSchema,
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveriesPageSchema,
  webhookDeliverySchema,
  webhookSchema,
  webhookSettingsBody,
  webhookSettingsSchema,
} from '@sightline/contracts';
import { requireAdmin, requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { presentDelivery, presentWebhook } from './webhooks.presenter.js';
import * as svc from './webhooks.service.js';

const idParams = z.object({ id: z.string().max(40) });
const deliveryParams = idParams.extend({ deliveryId: z.string().max(40) });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });
const tags = ['webhooks'];
/** Keyset pages of deliveries, newest first (ADR 0042): `cursor` is the previous page's `nextCursor`. */
const pageQuery = (limit: number) =>
  z.object({
    cursor: z.string().max(200).optional().describe("The previous page's `nextCursor`: the deliveries before its last one."),
    limit: z.coerce.number().int().min(1).max(200).default(limit),
  });
const presentPage = (p: Awaited<ReturnType<typeof svc.deliveries>>) => ({ items: p.items.map(presentDelivery), nextCursor: p.nextCursor });
const adminTags = ['webhooks', 'admin'];

/**
 * Outgoing webhooks (ADR 0016): users register endpoints for their items' events; admins see and
 * manage every endpoint, register instance-wide ones, and decide whether private addresses are allowed.
 */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const auth = { auth: 'user' as const };
  const admin = { auth: 'admin' as const };
  const actor = (req: Parameters<typeof requireUser>[0]) => requireUser(req).user;

  const presentAll = async (rows: Awaited<ReturnType<typeof svc.list>>) => {
    const last = await svc.lastDeliveries(
      ctx,
      rows.map((w) => w.id),
    );
    return rows.map((w) => presentWebhook(w, last.get(w.id)));
  };

  r.get('/v1/webhooks', { config: auth, schema: { tags, response: { 200: data(z.array(webhookSchema)), ...errorResponses } } }, async (req) => ({
    data: await presentAll(await svc.list(ctx, actor(req).id)),
  }));

  r.post(
    '/v1/webhooks',
    { config: auth, schema: { tags, body: createWebhookBody, response: { 201: data(createdWebhookSchema), ...errorResponses } } },
    async (req, reply) => {
      const { row, secret } = await svc.create(ctx, actor(req), req.body);
      return reply.status(201).send({ data: { ...presentWebhook(row, null), secret } });
    },
  );

  r.patch(
    '/v1/webhooks/:id',
    { config: auth, schema: { tags, params: idParams, body: updateWebhookBody, response: { 200: data(webhookSchema), ...errorResponses } } },
    async (req) => {
      const row = await svc.update(ctx, actor(req), req.params.id, req.body);
      return { data: presentWebhook(row, (await svc.lastDeliveries(ctx, [row.id])).get(row.id)) };
    },
  );

  r.delete('/v1/webhooks/:id', { config: auth, schema: { tags, params: idParams, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    await svc.remove(ctx, actor(req), req.params.id);
    return ok;
  });

  r.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: auth,
      schema: { tags, params: idParams, querystring: pageQuery(50), response: { 200: data(webhookDeliveriesPageSchema), ...errorResponses } },
    },
    async (req) => ({ data: presentPage(await svc.deliveries(ctx, actor(req), req.params.id, req.query)) }),
  );

  r.post(
    '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    { config: auth, schema: { tags, params: deliveryParams, response: { 202: data(webhookDeliverySchema), ...errorResponses } } },
    async (req, reply) => reply.status(202).send({ data: presentDelivery(await svc.redeliver(ctx, actor(req), req.params.id, req.params.deliveryId)) }),
  );

  r.get(
    '/v1/admin/webhooks',
    { config: admin, schema: { tags: adminTags, response: { 200: data(z.array(webhookSchema)), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: await presentAll(await svc.listAll(ctx)) };
    },
  );

  r.get(
    '/v1/admin/webhooks/deliveries',
    { config: admin, schema: { tags: adminTags, querystring: pageQuery(100), response: { 200: data(webhookDeliveriesPageSchema), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: presentPage(await svc.recentDeliveries(ctx, req.query)) };
    },
  );

  r.get(
    '/v1/admin/webhooks/settings',
    { config: admin, schema: { tags: adminTags, response: { 200: data(webhookSettingsSchema), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: await svc.settings(ctx) };
    },
  );

  r.put(
    '/v1/admin/webhooks/settings',
    { config: admin, schema: { tags: adminTags, body: webhookSettingsBody, response: { 200: data(webhookSettingsSchema), ...errorResponses } } },
    async (req) => {
      const { user } = requireAdmin(req);
      return { data: await svc.setSettings(ctx, user.id, req.body.allowPrivateUrls) };
    },
  );
}
