import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { presence, presenceGuests } from '../../platform/db/schema.js';

export const presenceRepository = {
  /** One more open connection; `connectedAt` moves only when the user was offline. */
  connected: async (db: Db, userId: string, now: Date) => {
    await db
      .insert(presence)
      .values({ userId, connectedAt: now, lastSeenAt: now, connections: 1, platform: 'web' })
      .onConflictDoUpdate({
        target: presence.userId,
        set: {
          connectedAt: sql`CASE WHEN ${presence.connections} <= 0 THEN ${now} ELSE ${presence.connectedAt} END`,
          lastSeenAt: now,
          connections: sql`${presence.connections} + 1`,
        },
      });
  },
  disconnected: async (db: Db, userId: string, now: Date) => {
    await db
      .update(presence)
      .set({ lastSeenAt: now, connections: sql`GREATEST(${presence.connections} - 1, 0)` })
      .where(eq(presence.userId, userId));
  },
  byUser: async (db: Db, userId: string) => (await db.select().from(presence).where(eq(presence.userId, userId)).limit(1))[0] ?? null,
  /** A signed-out socket opened (spec presence/guests); rows not seen since `staleBefore` are swept. */
  guestConnected: async (db: Db, id: string, now: Date, staleBefore: Date) => {
    await db.delete(presenceGuests).where(lt(presenceGuests.lastSeenAt, staleBefore));
    await db.insert(presenceGuests).values({ id, connectedAt: now, lastSeenAt: now, platform: 'web' });
  },
  guestSeen: async (db: Db, id: string, now: Date) => {
    await db.update(presenceGuests).set({ lastSeenAt: now }).where(eq(presenceGuests.id, id));
  },
  guestDisconnected: async (db: Db, id: string) => {
    await db.delete(presenceGuests).where(eq(presenceGuests.id, id));
  },
  /** Guest sockets seen since `since`, and when the longest-open of them connected. */
  guests: async (db: Db, since: Date) => {
    const row = (
      await db
        .select({ online: sql<number>`count(*)`, first: sql<Date | string | null>`min(${presenceGuests.connectedAt})` })
        .from(presenceGuests)
        .where(and(gte(presenceGuests.lastSeenAt, since)))
    )[0];
    return { online: Number(row?.online ?? 0), first: row?.first ? new Date(row.first) : null };
  },
};
