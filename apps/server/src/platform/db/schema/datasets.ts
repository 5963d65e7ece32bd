/** Tables of modules/datasets (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
  /** Edit sequence (ADR 0037): every edit takes seq + 1. */
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  /** Seq of the newest version not purged: rows with rev_from <= it are seen by a version and never changed in place. */
  frozenSeq: bigint('frozen_seq', { mode: 'number' }).notNull().default(0),
  /** The working class list, names by index (labels hold the index). */
  classes: jsonb('classes').$type<string[]>(),
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
  /** The image's identity across revisions (ADR 0037); `id` names one revision. */
  imageId: text('image_id').notNull(),
  revFrom: bigint('rev_from', { mode: 'number' }).notNull().default(0),
  /** NULL: part of the working state. */
  revTo: bigint('rev_to', { mode: 'number' }),
  sha256: text('sha256'),
  bytes: bigint('bytes', { mode: 'number' }),
  /** NULL: the bytes are a range of the dataset's archive (`source`); else a dataset_blobs storage key. */
  blobKey: text('blob_key'),
  labelRev: integer('label_rev').notNull().default(1),
});

/** Content-addressed image bytes of one owner (`u:<userId>` or `t:<teamId>`), reference-counted (ADR 0037). */
export const datasetBlobs = pgTable(
  'dataset_blobs',
  {
    ownerKey: text('owner_key').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    refs: integer('refs').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerKey, t.sha256] })],
);
