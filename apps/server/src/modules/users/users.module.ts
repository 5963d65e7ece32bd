import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { usersRoutes } from './users.routes.js';

/** Users: profile, feedback, deletion and restore. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(usersRoutes);
}
