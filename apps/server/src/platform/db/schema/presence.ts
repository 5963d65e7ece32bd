/** Tables of modules/presence (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './users.js';

export const presence = pgTable('presence', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  connectedAt: ts('connected_at'),
  lastSeenAt: ts('last_seen_at'),
  connections: integer('connections').notNull().default(0),
  platform: text('platform').notNull().default('web'),
});

/** Signed-out sockets of the web app: the spec's presence/guests (migration 0024). */
export const presenceGuests = pgTable(
  'presence_guests',
  {
    id: text('id').primaryKey(),
    connectedAt: ts('connected_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    platform: text('platform').notNull().default('web'),
  },
  (t) => [index('presence_guests_seen_idx').on(t.lastSeenAt)],
);
