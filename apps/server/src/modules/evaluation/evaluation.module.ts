import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerEvaluationListeners } from './evaluation.listeners.js';
import { evaluationRoutes } from './evaluation.routes.js';

/** Evaluations of a model on a dataset split: the job, its API and realtime (ADR 0034, ADR 0035). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerEvaluationListeners(ctx);
  await app.register(evaluationRoutes);
}
