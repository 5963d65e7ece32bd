import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { onDomainEvent, registerDeliveryJob } from './webhooks.service.js';

/** Outgoing webhooks (ADR 0016): the delivery job, the domain events they send, routes. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerDeliveryJob(ctx);
  ctx.events.on((event) => onDomainEvent(ctx, event));
  await app.register(webhooksRoutes);
}
