/** Tables of modules/storage (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const blobs = pgTable('blob_usage', {
  key: text('key').primaryKey(),
  userId: text('user_id'),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Bytes promised to uploads in flight (migration 0014_hardening). */
export const storageReservations = pgTable('storage_reservations', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  purpose: text('purpose').notNull(),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
