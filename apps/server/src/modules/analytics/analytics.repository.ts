import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { analyticsEvents } from '../../platform/db/schema.js';

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
