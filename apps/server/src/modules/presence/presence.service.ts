import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { presence } from '../../platform/db/schema.js';

/** Presence record of spec §3 (connected timestamp, platform 'web'), kept per user across instances. */
export async function connected(ctx: AppContext, userId: string) {
  const now = ctx.clock.now();
  await ctx.db
    .insert(presence)
    .values({ userId, connectedAt: now, lastSeenAt: now, connections: 1, platform: 'web' })
    .onConflictDoUpdate({
      target: presence.userId,
      set: { connectedAt: sql`CASE WHEN ${presence.connections} <= 0 THEN ${now} ELSE ${presence.connectedAt} END`, lastSeenAt: now, connections: sql`${presence.connections} + 1` },
    });
  await ctx.bus.publish(`presence:${userId}`, 'presence.updated', await getPresence(ctx, userId));
}

export async function disconnected(ctx: AppContext, userId: string) {
  await ctx.db
    .update(presence)
    .set({ lastSeenAt: ctx.clock.now(), connections: sql`GREATEST(${presence.connections} - 1, 0)` })
    .where(eq(presence.userId, userId));
  await ctx.bus.publish(`presence:${userId}`, 'presence.updated', await getPresence(ctx, userId));
}

export async function getPresence(ctx: AppContext, userId: string) {
  const row = (await ctx.db.select().from(presence).where(eq(presence.userId, userId)).limit(1))[0];
  const connectedAt = row?.connectedAt ?? null;
  return {
    connected: connectedAt ? connectedAt.toISOString() : null,
    platform: 'web' as const,
    formatted: connectedAt ? connectedAt.toUTCString() : null,
    online: (row?.connections ?? 0) > 0,
  };
}
