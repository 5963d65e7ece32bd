import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiKeysRoutes } from './api-keys.routes.js';

/** API keys of a user. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(apiKeysRoutes);
}
