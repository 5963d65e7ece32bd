import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { registerWebhooksListeners } from './webhooks.listeners.js';
import { registerDeliveryJob } from './webhooks.service.js';

/** Outgoing webhooks (ADR 0016): the delivery job, the domain events they send, routes. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerDeliveryJob(ctx);
  registerWebhooksListeners(ctx);
  await app.register(webhooksRoutes);
}
