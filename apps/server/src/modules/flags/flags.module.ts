import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerFlagsListeners } from './flags.listeners.js';
import { flagsRoutes } from './flags.routes.js';

/** Remote config (spec §9 flags). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerFlagsListeners(ctx);
  await app.register(flagsRoutes);
}
