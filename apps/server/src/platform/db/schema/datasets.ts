/** Tables of modules/datasets (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { DatasetReport, StoredDatasetStats } from '@sightline/contracts';
import { ts } from './columns.js';

export const datasets = pgTable('datasets', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  provider: text('provider').notNull().default('hub'),
  task: text('task').notNull().default('detect'),
  status: text('status').notNull().default('Initiating'),
  storageKey: text('storage_key'),
  filename: text('filename'),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  imageKey: text('image_key'),
  stats: jsonb('stats').$type<StoredDatasetStats>(),
  report: jsonb('report').$type<DatasetReport>(),
  error: text('error'),
  uploadJob: text('upload_job'),
  roboflow: jsonb('roboflow').$type<Record<string, unknown>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  uploadedAt: ts('uploaded_at'),
  processedAt: ts('processed_at'),
  failedAt: ts('failed_at'),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
});

export const datasetImages = pgTable('dataset_images', {
  id: text('id').primaryKey(),
  datasetId: text('dataset_id').notNull(),
  split: text('split').notNull(),
  name: text('name').notNull(),
  entryName: text('entry_name').notNull(),
  width: integer('width'),
  height: integer('height'),
  format: text('format'),
  className: text('class_name'),
  labels: jsonb('labels').$type<number[][]>().notNull().default([]),
  source: jsonb('source')
    .$type<{ dataOffset: number; compressedSize: number; uncompressedSize: number; compressionMethod: number; format: string }>()
    .notNull(),
  thumbKey: text('thumb_key'),
});
