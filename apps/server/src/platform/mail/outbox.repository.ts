import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';

/** Every mail the instance sends, sent or not (admins read it; with no SMTP it is the only copy). */
export const outboxRepository = {
  insert: async (db: Db, row: typeof mailOutbox.$inferInsert) => {
    await db.insert(mailOutbox).values(row);
  },
  update: async (db: Db, id: string, patch: Partial<typeof mailOutbox.$inferInsert>) => {
    await db.update(mailOutbox).set(patch).where(eq(mailOutbox.id, id));
  },
};
