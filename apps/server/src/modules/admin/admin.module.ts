import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { adminRoutes } from './admin.routes.js';

/** The admin area's endpoints (ADR 0015). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(adminRoutes);
}
