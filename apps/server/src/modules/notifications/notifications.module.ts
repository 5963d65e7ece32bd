import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerNotificationListeners } from './notifications.listeners.js';
import { notificationsRoutes } from './notifications.routes.js';

/** Notification records, the bell's count and their API (ADR 0028). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerNotificationListeners(ctx);
  await app.register(notificationsRoutes);
}
