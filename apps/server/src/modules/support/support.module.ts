import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { supportRoutes } from './support.routes.js';

/** Plans with billing off: the plan comparison, upgrade requests and the admin contact (ADR 0030). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(supportRoutes);
}
