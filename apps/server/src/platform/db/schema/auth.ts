/** Tables of modules/auth (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './users.js';

export const authIdentities = pgTable(
  'auth_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('auth_identities_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const mailTokens = pgTable(
  'mail_tokens',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(), // verify | reset
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('mail_tokens_hash_key').on(t.tokenHash)],
);

/** Sign-in, mail and API-key throttling per kind and subject (migration 0014_hardening). */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
    total: integer('total').notNull().default(0),
    strikes: integer('strikes').notNull().default(0),
    blockedUntil: ts('blocked_until'),
    lastAt: ts('last_at').notNull(),
    lastIp: text('last_ip'),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subject] })],
);
