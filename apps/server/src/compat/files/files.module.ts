import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { compatFileRoutes } from './files.routes.js';

/** Signed dataset files both clients download. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(compatFileRoutes);
}
