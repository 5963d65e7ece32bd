/** Tables of modules/dataset-versions (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { bigint, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Saved versions of a dataset (migration 0030, ADR 0038): the edit sequence number they froze, with classes and stats. */
export const datasetVersions = pgTable(
  'dataset_versions',
  {
    id: text('id').primaryKey(),
    datasetId: text('dataset_id').notNull(),
    number: integer('number').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    classes: jsonb('classes').$type<string[]>().notNull().default([]),
    stats: jsonb('stats').$type<Record<string, unknown>>(),
    images: integer('images').notNull().default(0),
    createdBy: text('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [uniqueIndex('dataset_versions_number_idx').on(t.datasetId, t.number)],
);
