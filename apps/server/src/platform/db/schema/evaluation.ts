/** Tables of modules/evaluation (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Evaluations of a model on a dataset split (migration 0027, ADR 0035): the job's state and, once completed, its result. */
export const evaluations = pgTable(
  'evaluations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    modelId: text('model_id').notNull(),
    datasetId: text('dataset_id').notNull(),
    split: text('split').$type<'train' | 'val' | 'test'>().notNull(),
    task: text('task').notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed' | 'failed' | 'cancelled'>().notNull().default('queued'),
    modelHash: text('model_hash').notNull(),
    datasetHash: text('dataset_hash').notNull(),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    classMap: jsonb('class_map').$type<{
      pairs: Array<{ datasetClass: number; modelClass: number; name: string }>;
      unmappedDataset: string[];
      unmappedModel: string[];
      skippedLabels: number;
    }>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('evaluations_model_idx').on(t.modelId, t.createdAt),
    index('evaluations_reuse_idx').on(t.modelId, t.datasetId, t.split, t.modelHash, t.datasetHash),
  ],
);

/** The most confident mistakes of an evaluation per kind (fp | fn | wrong) and class (migration 0027). */
export const evaluationMistakes = pgTable(
  'evaluation_mistakes',
  {
    evaluationId: text('evaluation_id').notNull(),
    kind: text('kind').$type<'fp' | 'fn' | 'wrong'>().notNull(),
    classId: integer('class_id').notNull(),
    rank: integer('rank').notNull(),
    imageId: text('image_id').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    prediction: jsonb('prediction').$type<{ classId: number; box: [number, number, number, number]; confidence?: number; polygon?: number[] }>(),
    label: jsonb('label').$type<{ classId: number; box: [number, number, number, number]; polygon?: number[] }>(),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.kind, t.classId, t.rank] })],
);
