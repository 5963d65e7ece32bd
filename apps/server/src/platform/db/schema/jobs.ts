/** Tables of platform/jobs (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').notNull().default('queued'), // queued | running | done | failed
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: ts('run_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    /** The lease holder, host:pid:instance (migration 0013, ADR 0013); jobs.repository.ts writes it with SQL. */
    lockedBy: text('locked_by'),
    /** A fresh token per claim (migration 0023, ADR 0025): the holder's writes name it, so a lost lease cannot write. */
    leaseToken: text('lease_token'),
    lastError: text('last_error'),
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    dedupeKey: text('dedupe_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('jobs_claim_idx').on(t.queue, t.status, t.runAt), uniqueIndex('jobs_dedupe_key').on(t.dedupeKey)],
);
