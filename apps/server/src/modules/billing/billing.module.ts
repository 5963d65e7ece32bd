import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { billingRoutes } from './billing.routes.js';

/** Billing: plans, Stripe, the wallet ledger (ADR 0007). */
export async function register(app: FastifyInstance, _ctx: AppContext) {
  await app.register(billingRoutes);
}
