import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerPresenceListeners } from './presence.listeners.js';
import { realtimeRoutes } from '../../platform/realtime/realtime.routes.js';
import { presenceRoutes } from './presence.routes.js';
import * as presence from './presence.service.js';

/** Presence: the realtime socket (platform/realtime) records who is online and the guests; presence routes. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerPresenceListeners(ctx);
  await app.register(realtimeRoutes, {
    onConnect: (uid) => presence.connected(ctx, uid),
    onDisconnect: (uid) => presence.disconnected(ctx, uid),
    onGuestConnect: () => presence.guestConnected(ctx),
    onGuestPing: (id) => presence.guestSeen(ctx, id),
    onGuestDisconnect: (id) => presence.guestDisconnected(ctx, id),
  });
  await app.register(presenceRoutes);
}
