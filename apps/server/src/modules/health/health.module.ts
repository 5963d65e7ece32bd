import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { healthRoutes } from './health.routes.js';

/** Health: GET /alive (the spec's connectivity check) and GET /ready. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(healthRoutes);
}
