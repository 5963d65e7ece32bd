/** Tables of modules/models (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const models = pgTable('models', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  projectId: text('project_id'),
  teamId: text('team_id'),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy').$type<'private' | 'unlisted' | 'public'>().notNull().default('private'),
  order: integer('sort_order'),
  task: text('task'),
  names: jsonb('names').$type<string[]>().notNull().default([]),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  datasetId: text('dataset_id'),
  datasetName: text('dataset_name'),
  /** The dataset version the model was trained on (migration 0030, ADR 0038). */
  datasetVersionId: text('dataset_version_id'),
  architectureId: text('architecture_id'),
  architectureName: text('architecture_name'),
  parentId: text('parent_id'),
  parentName: text('parent_name'),
  parentPath: text('parent_path'),
  parentUrl: text('parent_url'),
  hubStatus: text('hub_status').$type<'new' | 'training' | 'trained'>().notNull().default('new'),
  bestMetrics: jsonb('best_metrics').$type<Record<string, number>>(),
  epochsDone: integer('epochs_done').notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  archivedAt: ts('archived_at'),
  deletedAt: ts('deleted_at'),
  deletedWithProject: boolean('deleted_with_project').notNull().default(false),
  trainStart: ts('train_start'),
  trainEnd: ts('train_end'),
  trainHeartbeat: ts('train_heartbeat'),
  trainInitialized: ts('train_initialized'),
  /** created: made here to be trained; uploaded: weights trained elsewhere (migration 0020, ADR 0022) */
  origin: text('origin').$type<'created' | 'uploaded'>().notNull().default('created'),
});

export const modelFiles = pgTable(
  'model_files',
  {
    modelId: text('model_id').notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    blobKey: text('blob_key').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    epoch: integer('epoch'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.kind] })],
);

export const modelMetrics = pgTable(
  'model_metrics',
  {
    modelId: text('model_id').notNull(),
    epoch: integer('epoch').notNull(),
    metrics: jsonb('metrics').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.epoch] })],
);
