/** Tables of modules/webhooks (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { boolean, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Outgoing webhooks (migration 0016, ADR 0016). */
export const webhooks = pgTable('webhooks', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  url: text('url').notNull(),
  description: text('description'),
  events: text('events').array().notNull(),
  scope: text('scope').$type<'own' | 'instance'>().notNull().default('own'),
  secretEnc: text('secret_enc').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: text('id').primaryKey(),
  webhookId: text('webhook_id').notNull(),
  event: text('event').notNull(),
  eventId: text('event_id').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  status: text('status').$type<'pending' | 'retrying' | 'succeeded' | 'failed'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  statusCode: integer('status_code'),
  responseMs: integer('response_ms'),
  error: text('error'),
  redeliveryOf: text('redelivery_of'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastAttemptAt: ts('last_attempt_at'),
  nextAttemptAt: ts('next_attempt_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    responseMs: integer('response_ms'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

export const webhookSettings = pgTable('webhook_settings', {
  id: integer('id').primaryKey().default(1),
  allowPrivateUrls: boolean('allow_private_urls').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});
