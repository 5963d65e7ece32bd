import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerInferenceListeners } from './inference.listeners.js';
import { inferenceRoutes } from './inference.routes.js';

/** Inference: the HUB-compatible predict API and dedicated endpoints. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerInferenceListeners(ctx);
  await app.register(inferenceRoutes);
}
