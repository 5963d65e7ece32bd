import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAgentsListeners } from './agents.listeners.js';
import { agentsRoutes } from './agents.routes.js';
import { registerCloudTraining } from './cloud-training.service.js';

/** GPU agents (ADR 0009): realtime for their jobs, the pull protocol and its sweep (agents.routes), and cloud training's `train` job kind with its billing. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerAgentsListeners(ctx);
  registerCloudTraining(ctx);
  await app.register(agentsRoutes);
}
