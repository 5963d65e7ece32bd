import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { flagsRoutes } from './flags.routes.js';

/** Remote config (spec §9 flags). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(flagsRoutes);
}
