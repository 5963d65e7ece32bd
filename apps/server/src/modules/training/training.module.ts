import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerTrainingListeners } from './training.listeners.js';
import { trainingRoutes } from './training.routes.js';
import { scheduleStaleSweep } from './training.sweep.js';

/** Training: realtime for runs, the web's run endpoints and the sweep of silent runs (ADR 0020). The clients' protocols are compat/. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerTrainingListeners(ctx);
  scheduleStaleSweep(app);
  await app.register(trainingRoutes);
}
