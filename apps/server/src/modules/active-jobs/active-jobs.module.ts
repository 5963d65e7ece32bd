import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { activeJobsRoutes } from './active-jobs.routes.js';

/** Active jobs: the user's uploads in flight and datasets being processed. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(activeJobsRoutes);
}
