/** Tables of modules/api-keys (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './users.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** a run key's reach (migration 0021, ADR 0023): only these items; null = all of the user's rights */
    scope: jsonb('scope').$type<{ works: string[]; reads: string[] }>(),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_key').on(t.secretHash), index('api_keys_user_idx').on(t.userId)],
);
