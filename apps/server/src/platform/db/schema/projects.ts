/** Tables of modules/projects (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  imageKey: text('image_key'),
  imageBytes: bigint('image_bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
});
