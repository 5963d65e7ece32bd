import { desc } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { mailOutbox, users } from '../../platform/db/schema.js';

/** Admin reads across users: newest accounts, newest mails of the outbox. */
export const adminRepository = {
  recentUsers: (db: Db, limit: number) => db.select().from(users).orderBy(desc(users.createdAt)).limit(limit),
  recentMails: (db: Db, limit: number) => db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit),
};
