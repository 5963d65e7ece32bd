import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { getPresence } from './presence.service.js';

/** Realtime for presence (ADR 0031): whoever watches a user hears their presence record as it is now. */
export function registerPresenceListeners(ctx: AppContext) {
  ctx.events.on('presence.changed', async (e) => ctx.bus.publish(topics.presence(e.data.userId), 'presence.updated', await getPresence(ctx, e.data.userId)));
}
