/** Tables of modules/support: upgrade requests and the support settings (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Upgrade requests (migration 0026, ADR 0030): one open request per user, granted or dismissed by an admin. */
export const upgradeRequests = pgTable('upgrade_requests', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  plan: text('plan').$type<'pro' | 'enterprise'>().notNull(),
  fromPlan: text('from_plan').notNull(),
  message: text('message').notNull().default(''),
  status: text('status').$type<'open' | 'granted' | 'dismissed'>().notNull().default('open'),
  createdAt: ts('created_at').notNull().defaultNow(),
  decidedAt: ts('decided_at'),
  decidedBy: text('decided_by'),
});

/** The instance's support settings, one row (migration 0026): the admin contact address. */
export const supportSettings = pgTable('support_settings', {
  id: integer('id').primaryKey().default(1),
  contactEmail: text('contact_email'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});
