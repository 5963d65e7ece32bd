import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { exploreRoutes } from './explore.routes.js';

/** The public explore page: others' public datasets, projects and models (ADR 0030). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(exploreRoutes);
}
