import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { presence } from '../../platform/db/schema.js';

export const presenceRepository = {
  /** One more open connection; `connectedAt` moves only when the user was offline. */
  connected: async (db: Db, userId: string, now: Date) => {
    await db
      .insert(presence)
      .values({ userId, connectedAt: now, lastSeenAt: now, connections: 1, platform: 'web' })
      .onConflictDoUpdate({
        target: presence.userId,
        set: { connectedAt: sql`CASE WHEN ${presence.connections} <= 0 THEN ${now} ELSE ${presence.connectedAt} END`, lastSeenAt: now, connections: sql`${presence.connections} + 1` },
      });
  },
  disconnected: async (db: Db, userId: string, now: Date) => {
    await db
      .update(presence)
      .set({ lastSeenAt: now, connections: sql`GREATEST(${presence.connections} - 1, 0)` })
      .where(eq(presence.userId, userId));
  },
  byUser: async (db: Db, userId: string) => (await db.select().from(presence).where(eq(presence.userId, userId)).limit(1))[0] ?? null,
};
