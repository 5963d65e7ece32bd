import { z } from 'zod';
import type { DomainEventName } from './domain-events.js';

/**
 * Outgoing webhooks (ADR 0016): what a user or an admin can subscribe a URL to, and how deliveries
 * are signed. Recipe (also in docs/deploy.md and the Settings page):
 *
 *   header  Sightline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
 *   signed  `${t}.${raw request body}` with the webhook's secret (shown once, at creation)
 *   check   recompute, compare in constant time, refuse t older than WEBHOOK_TOLERANCE_S
 *
 * The webhook events are a subset of the domain event catalogue (domain-events.ts, ADR 0031).
 */
export const WEBHOOK_EVENTS = [
  'dataset.processed',
  'dataset.failed',
  'dataset.version.saved',
  'dataset.version.deleted',
  'dataset.edited',
  'training.started',
  'training.epoch',
  'training.completed',
  'training.failed',
  'model.exported',
  'model.deleted',
  'model.evaluated',
] as const satisfies readonly DomainEventName[];
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
export const isWebhookEvent = (name: string): name is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(name);

export const WEBHOOK_SIGNATURE_HEADER = 'Sightline-Signature';
export const WEBHOOK_EVENT_HEADER = 'Sightline-Event';
export const WEBHOOK_DELIVERY_HEADER = 'Sightline-Delivery';
/** A receiver should refuse signatures older than this (replays). */
export const WEBHOOK_TOLERANCE_S = 300;

/** The exact bytes that are signed: the timestamp, a dot, the raw body. */
export const webhookSignedPayload = (timestamp: number | string, body: string) => `${timestamp}.${body}`;

/** Parses `t=...,v1=...` (several v1 entries allowed while a secret is rotated). */
export function parseWebhookSignature(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d+$/.test(v)) t = Number(v);
    else if (k === 'v1' && v) v1.push(v);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
/** own: events of the owner's items; instance (admins only): events of every item on the instance. */
export const webhookScopeSchema = z.enum(['own', 'instance']);
export type WebhookScope = z.infer<typeof webhookScopeSchema>;

export const webhookDeliveryStatusSchema = z.enum(['pending', 'retrying', 'succeeded', 'failed']);

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(webhookEventSchema),
  scope: webhookScopeSchema,
  active: z.boolean(),
  created: z.string(),
  updated: z.string(),
  owner: z.object({ id: z.string(), username: z.string() }),
  lastDelivery: z.object({ status: webhookDeliveryStatusSchema, statusCode: z.number().nullable(), at: z.string() }).nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;
/** The create answer is the only time the signing secret is shown. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

const webhookUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s]+$/i, 'must be an http:// or https:// URL');
export const createWebhookBody = z.object({
  url: webhookUrl,
  events: z.array(webhookEventSchema).min(1).max(WEBHOOK_EVENTS.length),
  description: z.string().trim().max(200).nullish(),
  scope: webhookScopeSchema.default('own'),
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;
export const updateWebhookBody = z
  .object({
    url: webhookUrl,
    events: z.array(webhookEventSchema).min(1).max(WEBHOOK_EVENTS.length),
    description: z.string().trim().max(200).nullable(),
    active: z.boolean(),
  })
  .partial();
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  at: z.string(),
  statusCode: z.number().nullable(),
  responseMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;
export const webhookDeliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  event: webhookEventSchema,
  eventId: z.string(),
  status: webhookDeliveryStatusSchema,
  attempts: z.number(),
  statusCode: z.number().nullable(),
  responseMs: z.number().nullable(),
  error: z.string().nullable(),
  created: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  redeliveryOf: z.string().nullable(),
  payload: z.unknown(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
/** A keyset page of deliveries, newest first (ADR 0042): `nextCursor` continues it, null at the end. */
export const webhookDeliveriesPageSchema = z.object({ items: z.array(webhookDeliverySchema), nextCursor: z.string().nullable() });
export type WebhookDeliveriesPage = z.infer<typeof webhookDeliveriesPageSchema>;

/** Instance setting: URLs resolving to loopback, private or link-local addresses (off by default). */
export const webhookSettingsSchema = z.object({ allowPrivateUrls: z.boolean() });
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;
export const webhookSettingsBody = webhookSettingsSchema;

/** The JSON body of every delivery. */
export interface WebhookPayload<T = Record<string, unknown>> {
  id: string;
  type: WebhookEventName;
  created: string;
  data: T;
}
