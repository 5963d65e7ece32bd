import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerDatasetVersionsListeners } from './dataset-versions.listeners.js';
import { datasetVersionsRoutes } from './dataset-versions.routes.js';

/** Dataset versions, diffs and lineage (ADR 0038): routes and listeners; the dataset's topic is authorised by datasets. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerDatasetVersionsListeners(ctx);
  await app.register(datasetVersionsRoutes);
}
