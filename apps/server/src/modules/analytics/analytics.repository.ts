import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { analyticsEvents, analyticsRollup } from '../../platform/db/schema.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

export type AnalyticsEventRow = typeof analyticsEvents.$inferInsert;

export const analyticsRepository = {
  insert: async (db: Db, row: AnalyticsEventRow) => {
    await db.insert(analyticsEvents).values(row);
  },

  /**
   * Events per (bucket, name) in [from, to): an index-only scan of analytics_events_created_idx
   * (created_at INCLUDE name, user_id), grouped in SQL. Buckets are UTC days or ISO weeks.
   */
  countsOverTime: async (db: Db, from: Date, to: Date, interval: 'day' | 'week') =>
    rowsOf<{ bucket: string; name: string; n: string | number }>(
      await db.execute(sql`
        SELECT to_char(date_trunc(${interval}, created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS bucket, name, count(*) AS n
        FROM analytics_events WHERE created_at >= ${from} AND created_at < ${to}
        GROUP BY 1, 2 ORDER BY 1, 2`),
    ).map((r) => ({ bucket: r.bucket, name: r.name, n: Number(r.n) })),
  /** Distinct users with any event per bucket (the same index, user_id included). */
  activeUsers: async (db: Db, from: Date, to: Date, interval: 'day' | 'week') =>
    rowsOf<{ bucket: string; n: string | number }>(
      await db.execute(sql`
        SELECT to_char(date_trunc(${interval}, created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS bucket, count(DISTINCT user_id) AS n
        FROM analytics_events WHERE created_at >= ${from} AND created_at < ${to} AND user_id IS NOT NULL
        GROUP BY 1 ORDER BY 1`),
    ).map((r) => ({ bucket: r.bucket, n: Number(r.n) })),
  /** Rollup rows of [fromBucket, toBucket) for a period ('~done' marks a computed bucket, '~active' its distinct users). */
  rollup: (db: Db, period: 'day' | 'week', fromBucket: string, toBucket: string) =>
    db
      .select()
      .from(analyticsRollup)
      .where(and(eq(analyticsRollup.period, period), gte(analyticsRollup.bucket, fromBucket), lt(analyticsRollup.bucket, toBucket))),
  /** Aggregates [from, to) from the events into rollup rows; concurrent fills of the same bucket are harmless. */
  fillRollup: async (db: Db, period: 'day' | 'week', from: Date, to: Date, buckets: string[]) => {
    await db.execute(sql`
      INSERT INTO analytics_rollup (period, bucket, name, count)
      SELECT ${period}, to_char(date_trunc(${period}, created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), name, count(*)
      FROM analytics_events WHERE created_at >= ${from} AND created_at < ${to} GROUP BY 2, 3
      UNION ALL
      SELECT ${period}, to_char(date_trunc(${period}, created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), '~active', count(DISTINCT user_id)
      FROM analytics_events WHERE created_at >= ${from} AND created_at < ${to} AND user_id IS NOT NULL GROUP BY 2
      ON CONFLICT DO NOTHING`);
    if (buckets.length)
      await db
        .insert(analyticsRollup)
        .values(buckets.map((bucket) => ({ period, bucket, name: '~done', count: 0 })))
        .onConflictDoNothing();
  },
  /** Inference calls per model in [from, to) (infer_model events, analytics_events_name_idx), with the model's dataset. */
  topModels: async (db: Db, from: Date, to: Date, limit: number) =>
    rowsOf<{ id: string; name: string | null; dataset_id: string | null; dataset_name: string | null; calls: string | number }>(
      await db.execute(sql`
        SELECT e.model_id AS id, m.name, m.dataset_id, d.name AS dataset_name, e.calls
        FROM (SELECT properties->>'modelId' AS model_id, count(*) AS calls FROM analytics_events
              WHERE name = 'infer_model' AND created_at >= ${from} AND created_at < ${to} GROUP BY 1) e
        LEFT JOIN models m ON m.id = e.model_id
        LEFT JOIN datasets d ON d.id = m.dataset_id
        WHERE e.model_id IS NOT NULL
        ORDER BY e.calls DESC, e.model_id LIMIT ${limit}`),
    ).map((r) => ({ id: r.id, name: r.name, datasetId: r.dataset_id, datasetName: r.dataset_name, calls: Number(r.calls) })),
};
