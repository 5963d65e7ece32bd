/** Tables of modules/integrations (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Roboflow integration (migration 0008_integrations). Keys are AES-256-GCM ciphertext. */
export const integrations = pgTable(
  'integrations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    type: text('type').$type<'roboflow'>().notNull().default('roboflow'),
    workspace: text('workspace').notNull(),
    workspaceName: text('workspace_name').notNull(),
    apiKeyEnc: text('api_key_enc').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_user_workspace_key').on(t.userId, t.type, t.workspace)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    collection: text('collection').$type<'ext_roboflow'>().notNull().default('ext_roboflow'),
    ref: text('ref').notNull(),
    apiKeyEnc: text('api_key_enc'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_user_ref_key').on(t.userId, t.collection, t.ref)],
);

export const roboflowImports = pgTable(
  'roboflow_imports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    source: text('source').$type<'workspace' | 'universe'>().notNull(),
    workspace: text('workspace').notNull(),
    project: text('project').notNull(),
    version: integer('version').notNull(),
    format: text('format').notNull(),
    status: text('status').$type<'queued' | 'exporting' | 'downloading' | 'imported' | 'failed' | 'cancelled'>().notNull().default('queued'),
    phase: text('phase'),
    done: bigint('done', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    errorCode: text('error_code'),
    error: text('error'),
    datasetId: text('dataset_id'),
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [uniqueIndex('roboflow_imports_version_key').on(t.userId, t.workspace, t.project, t.version)],
);

// ---- plans, billing and the wallet ledger (migration 0006, ADR 0007)
