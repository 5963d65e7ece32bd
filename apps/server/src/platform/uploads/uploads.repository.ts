import { desc, eq } from 'drizzle-orm';
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
  recentOf: (db: Db, userId: string, limit: number) => db.select().from(uploads).where(eq(uploads.userId, userId)).orderBy(desc(uploads.createdAt)).limit(limit),
};
