import type { Db } from '../../platform/db/client.js';
import { analyticsEvents } from '../../platform/db/schema.js';

export type AnalyticsEventRow = typeof analyticsEvents.$inferInsert;

export const analyticsRepository = {
  insert: async (db: Db, row: AnalyticsEventRow) => {
    await db.insert(analyticsEvents).values(row);
  },
};
