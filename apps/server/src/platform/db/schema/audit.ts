/** Tables of modules/audit (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigserial, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Append-only audit log (migration 0015, ADR 0015): a trigger refuses UPDATE and DELETE. */
export const auditLog = pgTable('audit_log', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: text('id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  action: text('action').notNull(),
  actorId: text('actor_id'),
  actorLabel: text('actor_label'),
  targetType: text('target_type'),
  targetId: text('target_id'),
  targetLabel: text('target_label'),
  userId: text('user_id'),
  outcome: text('outcome').$type<'success' | 'failure'>().notNull().default('success'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
});
