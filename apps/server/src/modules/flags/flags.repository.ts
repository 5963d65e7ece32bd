import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { featureFlags } from '../../platform/db/schema.js';

export const flagsRepository = {
  all: (db: Db) => db.select().from(featureFlags),
  upsert: async (db: Db, row: { name: string; enabled: boolean; updatedAt: Date; updatedBy: string }) => {
    await db
      .insert(featureFlags)
      .values(row)
      .onConflictDoUpdate({ target: featureFlags.name, set: { enabled: row.enabled, updatedAt: row.updatedAt, updatedBy: row.updatedBy } });
  },
  remove: async (db: Db, name: string) => {
    await db.delete(featureFlags).where(eq(featureFlags.name, name));
  },
};
