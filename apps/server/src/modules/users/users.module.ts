import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerUsersListeners } from './users.listeners.js';
import { usersRoutes } from './users.routes.js';

/** Users: profile, feedback, deletion and restore. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerUsersListeners(ctx);
  await app.register(usersRoutes);
}
