import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for remote config (ADR 0031): every signed-in client hears the flags as they are now. */
export function registerFlagsListeners(ctx: AppContext) {
  ctx.events.on('flags.updated', (e) => ctx.bus.publish(topics.config(), 'config.updated', { flags: e.data.flags }));
}
