import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { storageRoutes } from './storage.routes.js';

/** Storage: what a user's items use of their plan (GET /v1/users/me/storage). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(storageRoutes);
}
