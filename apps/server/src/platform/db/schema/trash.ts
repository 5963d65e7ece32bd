/** Tables of modules/trash (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * How many datasets, projects and models each owner's trash holds and their bytes (migration 0036,
 * ADR 0042): kept by triggers on those tables, read in O(1) by the trash page. Written only by them.
 */
export const trashTotals = pgTable('trash_totals', {
  userId: text('user_id').primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
});
