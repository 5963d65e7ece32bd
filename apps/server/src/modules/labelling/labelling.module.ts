import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerLabellingListeners } from './labelling.listeners.js';
import { labellingRoutes } from './labelling.routes.js';

/** Model-assisted labelling (ADR 0039): pre-labelling jobs, suggestions to accept or reject, review filters, class counts. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerLabellingListeners(ctx);
  await app.register(labellingRoutes);
}
