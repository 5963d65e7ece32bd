/** Tables of modules/billing (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, bigserial, boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const planLimits = pgTable('plan_limits', {
  plan: text('plan').primaryKey(),
  storageBytes: bigint('storage_bytes', { mode: 'number' }),
  models: integer('models'),
  inferencePerHour: integer('inference_per_hour'),
  inferencePerMonth: integer('inference_per_month'),
  cloudRunsConcurrent: integer('cloud_runs_concurrent'),
  cloudTraining: boolean('cloud_training'),
  dedicatedInference: boolean('dedicated_inference'),
  teams: boolean('teams'),
  walletTopUp: boolean('wallet_top_up'),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const billingSubscriptions = pgTable('billing_subscriptions', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  source: text('source').$type<'stripe' | 'admin'>().notNull(),
  plan: text('plan').notNull(),
  status: text('status').notNull(),
  interval: text('interval'),
  customerId: text('customer_id'),
  priceId: text('price_id'),
  currentPeriodEnd: ts('current_period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  stripeEventAt: bigint('stripe_event_at', { mode: 'number' }).notNull().default(0),
  setBy: text('set_by'),
  reason: text('reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  outcome: text('outcome').notNull(),
  userId: text('user_id'),
  detail: text('detail'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const walletEntries = pgTable('wallet_entries', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  kind: text('kind').$type<'top_up' | 'admin_credit' | 'hold' | 'settle' | 'release'>().notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  held: bigint('held', { mode: 'number' }).notNull().default(0),
  charged: bigint('charged', { mode: 'number' }).notNull().default(0),
  balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
  heldAfter: bigint('held_after', { mode: 'number' }).notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  holdId: text('hold_id'),
  paymentId: text('payment_id'),
  modelId: text('model_id'),
  epoch: integer('epoch'),
  actorId: text('actor_id'),
  reason: text('reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** insertion order (migration 0006b) */
  seq: bigserial('seq', { mode: 'number' }).notNull(),
});

export const billingRecords = pgTable('billing_records', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  type: text('type').$type<'train' | 'subscription'>().notNull(),
  modelId: text('model_id'),
  holdId: text('hold_id'),
  subscriptionId: text('subscription_id'),
  plan: text('plan').notNull(),
  status: text('status').notNull(),
  held: bigint('held', { mode: 'number' }).notNull().default(0),
  charged: bigint('charged', { mode: 'number' }).notNull().default(0),
  released: bigint('released', { mode: 'number' }).notNull().default(0),
  startedAt: ts('started_at').notNull(),
  endedAt: ts('ended_at'),
});
