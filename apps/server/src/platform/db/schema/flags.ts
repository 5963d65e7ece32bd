/** Tables of modules/flags (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { boolean, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const featureFlags = pgTable('feature_flags', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});
