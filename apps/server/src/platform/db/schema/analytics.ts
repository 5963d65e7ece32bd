/** Tables of modules/analytics (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    name: text('name').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('analytics_events_user_idx').on(t.userId, t.createdAt), index('analytics_events_name_idx').on(t.name, t.createdAt)],
);

/** Closed-bucket event counts for the admin charts (migration 0015b): per day or ISO week and name; '~active' and '~done' rows. */
export const analyticsRollup = pgTable(
  'analytics_rollup',
  {
    period: text('period').$type<'day' | 'week'>().notNull(),
    bucket: text('bucket').notNull(),
    name: text('name').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.bucket, t.name] })],
);
