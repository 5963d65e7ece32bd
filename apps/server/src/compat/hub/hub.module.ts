import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { hubCompatRoutes } from './hub.routes.js';

/** The legacy HUB protocol (ultralytics < 8.4.115 + hub-sdk) over the training lifecycle. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(hubCompatRoutes);
}
