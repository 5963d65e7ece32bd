import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for accounts (ADR 0031): the user's own topic hears their record change or the account go. */
export function registerUsersListeners(ctx: AppContext) {
  ctx.events.on('user.profileUpdated', (e) => ctx.bus.publish(topics.user(e.data.user.id), 'user.updated', e.data.user));
  ctx.events.on('user.planChanged', (e) => ctx.bus.publish(topics.user(e.data.user.id), 'user.updated', e.data.user));
  ctx.events.on('user.deleted', (e) => ctx.bus.publish(topics.user(e.data.userId), 'user.deleted', { id: e.data.userId }));
}
