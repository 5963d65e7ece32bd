import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedPer } from '../../platform/db/prepared.js';
import { apiKeys, inferenceEndpoints, inferenceUsage, modelFiles, models, projects } from '../../platform/db/schema.js';

export type InferenceModelRow = typeof models.$inferSelect;
export type InferenceProjectRow = typeof projects.$inferSelect;
export type OnnxFileRow = typeof modelFiles.$inferSelect;
export type EndpointRow = typeof inferenceEndpoints.$inferSelect;

const modelForPredictQuery = preparedPer((db) =>
  db
    .select({ model: models, project: projects, onnx: modelFiles })
    .from(models)
    .leftJoin(projects, eq(projects.id, models.projectId))
    .leftJoin(modelFiles, and(eq(modelFiles.modelId, models.id), eq(modelFiles.kind, 'onnx')))
    .where(eq(models.id, sql.placeholder('modelId')))
    .limit(1)
    .prepare('sl_model_for_predict'),
);

export const inferenceRepository = {
  /** Model, its project and its ONNX file in one query: this runs on every prediction. */
  modelForPredict: async (db: Db, modelId: string) => (await modelForPredictQuery(db).execute({ modelId }))[0] ?? null,
  modelWithProject: async (db: Db, modelId: string) =>
    (
      await db
        .select({ model: models, project: projects })
        .from(models)
        .leftJoin(projects, eq(projects.id, models.projectId))
        .where(eq(models.id, modelId))
        .limit(1)
    )[0] ?? null,
  onnxFile: async (db: Db, modelId: string) =>
    (
      await db
        .select()
        .from(modelFiles)
        .where(and(eq(modelFiles.modelId, modelId), eq(modelFiles.kind, 'onnx')))
    )[0] ?? null,

  liveEndpoint: async (db: Db, modelId: string) =>
    (
      await db
        .select()
        .from(inferenceEndpoints)
        .where(and(eq(inferenceEndpoints.modelId, modelId), isNull(inferenceEndpoints.stoppedAt)))
    )[0] ?? null,
  endpoint: async (db: Db, id: string) => (await db.select().from(inferenceEndpoints).where(eq(inferenceEndpoints.id, id)))[0] ?? null,
  insertEndpoint: async (db: Db, row: typeof inferenceEndpoints.$inferInsert) => (await db.insert(inferenceEndpoints).values(row).returning())[0]!,
  updateEndpoint: async (db: Db, id: string, patch: Partial<typeof inferenceEndpoints.$inferInsert>) => {
    await db.update(inferenceEndpoints).set(patch).where(eq(inferenceEndpoints.id, id));
  },

  /**
   * Adds `calls` to the hour and the month and each key's share to the key's month, in one round
   * trip (the in-memory quota meter's batched write); answers the new counts.
   */
  addCalls: async (db: Db, userId: string, hourBucket: string, monthBucket: string, calls: number, perKey: Array<[apiKeyId: string, calls: number]>) => {
    const keyed = perKey.filter(([k, n]) => k !== '' && n > 0);
    const k = keyed.length
      ? sql`, k AS (
      INSERT INTO inference_usage (user_id, api_key_id, bucket, count) VALUES ${sql.join(
        keyed.map(([key, n]) => sql`(${userId}, ${key}, ${monthBucket}, ${n}::int)`),
        sql`, `,
      )}
      ON CONFLICT (user_id, api_key_id, bucket) DO UPDATE SET count = inference_usage.count + excluded.count RETURNING count)`
      : sql``;
    const res = await db.execute(sql`
    WITH h AS (
      INSERT INTO inference_usage (user_id, api_key_id, bucket, count) VALUES (${userId}, '', ${hourBucket}, ${calls}::int)
      ON CONFLICT (user_id, api_key_id, bucket) DO UPDATE SET count = inference_usage.count + excluded.count RETURNING count),
    m AS (
      INSERT INTO inference_usage (user_id, api_key_id, bucket, count) VALUES (${userId}, '', ${monthBucket}, ${calls}::int)
      ON CONFLICT (user_id, api_key_id, bucket) DO UPDATE SET count = inference_usage.count + excluded.count RETURNING count)${k}
    SELECT (SELECT count FROM h) AS hour, (SELECT count FROM m) AS month${keyed.length ? sql`, (SELECT count(*) FROM k) AS keyed` : sql``}`);
    const row = (res as unknown as { rows: Array<{ hour: number; month: number }> }).rows[0]!;
    return { hour: Number(row.hour), month: Number(row.month) };
  },
  /** Takes a refused call back out of the counts. */
  uncountCall: async (db: Db, userId: string, apiKeyId: string, hourBucket: string, monthBucket: string) => {
    await db.execute(sql`
    UPDATE inference_usage SET count = count - 1
    WHERE user_id = ${userId} AND ((api_key_id = '' AND bucket IN (${hourBucket}, ${monthBucket})) OR (api_key_id = ${apiKeyId} AND ${apiKeyId} <> '' AND bucket = ${monthBucket}))`);
  },
  /** Counts of one bucket per API key ('' = all calls), with the key's name. */
  usageIn: (db: Db, userId: string, bucket: string) =>
    db
      .select({ apiKeyId: inferenceUsage.apiKeyId, count: inferenceUsage.count, name: apiKeys.name, prefix: apiKeys.prefix })
      .from(inferenceUsage)
      .leftJoin(apiKeys, eq(apiKeys.id, inferenceUsage.apiKeyId))
      .where(and(eq(inferenceUsage.userId, userId), eq(inferenceUsage.bucket, bucket))),
};
