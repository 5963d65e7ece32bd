import type { Webhook, WebhookDelivery, WebhookEventName } from '@sightline/contracts';
import type { AttemptRow, DeliveryRow, WebhookWithOwner } from './webhooks.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentWebhook(row: WebhookWithOwner, last: DeliveryRow | null | undefined): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventName[],
    scope: row.scope,
    active: row.active,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
    owner: { id: row.userId, username: row.ownerUsername },
    lastDelivery: last ? { status: last.status, statusCode: last.statusCode, at: (last.lastAttemptAt ?? last.createdAt).toISOString() } : null,
  };
}

export function presentDelivery(row: DeliveryRow & { attemptLog: AttemptRow[] }): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: row.event as WebhookEventName,
    eventId: row.eventId,
    status: row.status,
    attempts: row.attempts,
    statusCode: row.statusCode,
    responseMs: row.responseMs,
    error: row.error,
    created: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: iso(row.nextAttemptAt),
    redeliveryOf: row.redeliveryOf,
    payload: row.payload,
    attemptLog: row.attemptLog.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), statusCode: a.statusCode, responseMs: a.responseMs, error: a.error })),
  };
}
