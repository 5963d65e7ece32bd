import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { integrationsRoutes } from './integrations.routes.js';
import { registerRoboflowImportJob } from './roboflow.import-job.js';

/** Roboflow (ADR 0006): the import job and routes. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerRoboflowImportJob(ctx);
  await app.register(integrationsRoutes);
}
