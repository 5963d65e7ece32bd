import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAnalyticsListeners } from './analytics.listeners.js';

/** Analytics (ADR 0031): the listener that records business events; its charts are served by admin. */
export async function register(_app: FastifyInstance, ctx: AppContext) {
  registerAnalyticsListeners(ctx);
}
