import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { platformCompatRoutes } from './platform.routes.js';

/** The Ultralytics Platform protocol (ultralytics ≥ 8.4.115) over the training lifecycle. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(platformCompatRoutes);
}
