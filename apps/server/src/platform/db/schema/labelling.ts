/** Tables of modules/labelling (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Pre-labelling jobs (migration 0031, ADR 0039): a model run over a dataset's images, its progress and totals. */
export const prelabelJobs = pgTable(
  'prelabel_jobs',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id').notNull(),
    userId: text('user_id').notNull(),
    modelId: text('model_id').notNull(),
    split: text('split').$type<'train' | 'val' | 'test'>(),
    imageIds: jsonb('image_ids').$type<string[]>(),
    conf: doublePrecision('conf').notNull(),
    /** Model class id → dataset class id (null: left out), with the model class's name. */
    classMap: jsonb('class_map').$type<Array<{ modelClass: number; name: string; datasetClass: number | null }>>().notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed' | 'failed' | 'cancelled'>().notNull().default('queued'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    suggested: integer('suggested').notNull().default(0),
    boxes: integer('boxes').notNull().default(0),
    error: text('error'),
    cancelRequestedAt: ts('cancel_requested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('prelabel_jobs_dataset_idx').on(t.datasetId, t.createdAt)],
);

/** Model proposals kept apart from the labels until accepted or rejected (migration 0031). */
export const labelSuggestions = pgTable(
  'label_suggestions',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id').notNull(),
    imageId: text('image_id').notNull(),
    jobId: text('job_id').notNull(),
    modelId: text('model_id').notNull(),
    /** YOLO rows in the dataset's class ids, normalised as labels are. */
    labels: jsonb('labels').$type<number[][]>().notNull(),
    /** Confidence of each row. */
    conf: jsonb('conf').$type<number[]>().notNull(),
    className: text('class_name'),
    status: text('status').$type<'pending' | 'accepted' | 'rejected'>().notNull().default('pending'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    decidedBy: text('decided_by'),
  },
  (t) => [index('label_suggestions_job_idx').on(t.jobId)],
);
