import { isWebhookEvent } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { onDomainEvent } from './webhooks.service.js';

/** The webhook subset of the domain events becomes deliveries to the owner's and instance-wide webhooks (ADR 0031). */
export function registerWebhooksListeners(ctx: AppContext) {
  ctx.events.on(async (event) => {
    if (isWebhookEvent(event.name) && event.ownerId) await onDomainEvent(ctx, { name: event.name, ownerId: event.ownerId, data: event.data });
  });
}
