import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { presenceRepository } from './presence.repository.js';

/** Presence record of spec §3 (connected timestamp, platform 'web'), kept per user across instances. */
export async function connected(ctx: AppContext, userId: string) {
  await presenceRepository.connected(ctx.db, userId, ctx.clock.now());
  await ctx.bus.publish(topics.presence(userId), 'presence.updated', await getPresence(ctx, userId));
}

export async function disconnected(ctx: AppContext, userId: string) {
  await presenceRepository.disconnected(ctx.db, userId, ctx.clock.now());
  await ctx.bus.publish(topics.presence(userId), 'presence.updated', await getPresence(ctx, userId));
}

export async function getPresence(ctx: AppContext, userId: string) {
  const row = await presenceRepository.byUser(ctx.db, userId);
  const connectedAt = row?.connectedAt ?? null;
  return {
    connected: connectedAt ? connectedAt.toISOString() : null,
    platform: 'web' as const,
    formatted: connectedAt ? connectedAt.toUTCString() : null,
    online: (row?.connections ?? 0) > 0,
  };
}
