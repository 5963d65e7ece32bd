import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { inferenceRoutes } from './inference.routes.js';

/** Inference: the HUB-compatible predict API and dedicated endpoints. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(inferenceRoutes);
}
