/** Tables of modules/inference (ADR 0033: one schema file per owner, re-exported by ../schema.ts). */
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const inferenceUsage = pgTable(
  'inference_usage',
  {
    userId: text('user_id').notNull(),
    apiKeyId: text('api_key_id').notNull().default(''),
    bucket: text('bucket').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.apiKeyId, t.bucket] })],
);

export const inferenceEndpoints = pgTable('inference_endpoints', {
  id: text('id').primaryKey(),
  modelId: text('model_id').notNull(),
  userId: text('user_id').notNull(),
  status: text('status').notNull().default('starting'),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  stoppedAt: ts('stopped_at'),
});
