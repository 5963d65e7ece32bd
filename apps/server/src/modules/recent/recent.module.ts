import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { recentRoutes } from './recent.routes.js';

/** Home's Recent card and the global search (ADR 0018). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(recentRoutes);
}
