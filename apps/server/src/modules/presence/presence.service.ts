import type { GuestPresence } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
import { presenceRepository } from './presence.repository.js';

/** Presence record of spec §3 (connected timestamp, platform 'web'), kept per user across instances. */
export async function connected(ctx: AppContext, userId: string) {
  await presenceRepository.connected(ctx.db, userId, ctx.clock.now());
  await ctx.events.emit('presence.changed', userId, { userId });
}

export async function disconnected(ctx: AppContext, userId: string) {
  await presenceRepository.disconnected(ctx.db, userId, ctx.clock.now());
  await ctx.events.emit('presence.changed', userId, { userId });
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

/**
 * Guests (spec §7 presence/guests): signed-out visitors with the web app open, one row per socket.
 * A socket pings every 25 s; one not seen for GUEST_STALE_MS (a crashed instance's) no longer counts.
 */
export const GUEST_STALE_MS = 60_000;

export async function guestConnected(ctx: AppContext): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  await presenceRepository.guestConnected(ctx.db, id, now, new Date(now.getTime() - 60 * GUEST_STALE_MS));
  return id;
}

export async function guestSeen(ctx: AppContext, id: string) {
  await presenceRepository.guestSeen(ctx.db, id, ctx.clock.now());
}

export async function guestDisconnected(ctx: AppContext, id: string) {
  await presenceRepository.guestDisconnected(ctx.db, id);
}

export async function getGuestPresence(ctx: AppContext): Promise<GuestPresence> {
  const { online, first } = await presenceRepository.guests(ctx.db, new Date(ctx.clock.now().getTime() - GUEST_STALE_MS));
  return { online, connected: first ? first.toISOString() : null, formatted: first ? first.toUTCString() : null, platform: 'web' };
}
