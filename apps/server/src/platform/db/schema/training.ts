/** Tables of modules/training (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { doublePrecision, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Training run state reported by the user's ultralytics client (migration 0004_training). */
export const modelTraining = pgTable('model_training', {
  modelId: text('model_id').primaryKey(),
  protocol: text('protocol').$type<'hub' | 'platform'>().notNull(),
  runId: text('run_id'),
  agent: text('agent'),
  agentId: text('agent_id'),
  outcome: text('outcome').$type<'queued' | 'running' | 'completed' | 'cancelled' | 'failed' | 'timeout'>().notNull().default('running'),
  /** Why a run failed or timed out (the agent's or client's words; ADR 0020). */
  error: text('error'),
  endedAt: ts('ended_at'),
  cancelRequestedAt: ts('cancel_requested_at'),
  cancelRequestedBy: text('cancel_requested_by'),
  staleAt: ts('stale_at'),
  lastEventAt: ts('last_event_at'),
  epochsTotal: integer('epochs_total'),
  bestEpoch: integer('best_epoch'),
  bestFitness: doublePrecision('best_fitness'),
  finalMetrics: jsonb('final_metrics').$type<Record<string, unknown>>(),
  results: jsonb('results').$type<Record<string, unknown>>(),
  plots: jsonb('plots').$type<unknown[]>(),
  environment: jsonb('environment').$type<Record<string, unknown>>(),
  trainArgs: jsonb('train_args').$type<Record<string, unknown>>(),
  system: jsonb('system').$type<Record<string, unknown>>(),
  modelInfo: jsonb('model_info').$type<Record<string, unknown>>(),
  /** The dataset version this run trained on (migration 0030, ADR 0038). */
  datasetVersionId: text('dataset_version_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const modelConsole = pgTable(
  'model_console',
  {
    modelId: text('model_id').notNull(),
    chunkId: integer('chunk_id').notNull(),
    content: text('content').notNull(),
    lineCount: integer('line_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.chunkId] })],
);
