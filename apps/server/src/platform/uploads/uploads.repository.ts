import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { uploads } from '../db/schema.js';

export type UploadRow = typeof uploads.$inferSelect;

/** Resumable uploads in flight and their outcome (shown on /active-jobs). */
export const uploadsRepository = {
  insert: async (db: Db, row: typeof uploads.$inferInsert) => {
    await db.insert(uploads).values(row);
  },
  update: async (db: Db, id: string, patch: Partial<typeof uploads.$inferInsert>) => {
    await db.update(uploads).set(patch).where(eq(uploads.id, id));
  },
  /**
   * The bytes received so far, never lowered: progress events of a request and its end may land out
   * of order, and /active-jobs must not show less than the store holds.
   */
  raiseOffset: async (db: Db, id: string, offset: number, now: Date) => {
    await db
      .update(uploads)
      .set({ offset: sql`greatest(${uploads.offset}, ${offset})`, updatedAt: now })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')));
  },
  /** Uploads still in flight created before `cutoff` end as failed (expired); their ids. */
  expireBefore: async (db: Db, cutoff: Date, now: Date) =>
    (
      await db
        .update(uploads)
        .set({ status: 'failed', error: 'expired', updatedAt: now })
        .where(and(eq(uploads.status, 'uploading'), lt(uploads.createdAt, cutoff)))
        .returning({ id: uploads.id })
    ).map((r) => r.id),
  recentOf: (db: Db, userId: string, limit: number) =>
    db.select().from(uploads).where(eq(uploads.userId, userId)).orderBy(desc(uploads.createdAt)).limit(limit),
};
