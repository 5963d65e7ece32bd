import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { trainingRoutes } from './training.routes.js';
import { scheduleStaleSweep } from './training.sweep.js';

/** Training: the web's run endpoints and the sweep of silent runs (ADR 0020). The clients' protocols are compat/. */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  scheduleStaleSweep(app);
  await app.register(trainingRoutes);
}
