/** Tables of platform/uploads (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  datasetId: text('dataset_id'),
  path: text('path').notNull(),
  filename: text('filename').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  offset: bigint('offset_bytes', { mode: 'number' }).notNull().default(0),
  status: text('status').notNull().default('uploading'),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  completedAt: ts('completed_at'),
});
