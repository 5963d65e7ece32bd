import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerAuditListeners } from './audit.listeners.js';
import { auditContext } from './audit.context.js';
import { auditRoutes } from './audit.routes.js';
import { observeResponse } from './audit.service.js';

/** The audit log (ADR 0015): every request's scope and the responses worth an entry, and the read-only routes. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerAuditListeners(ctx);
  await app.register(auditContext((req, status, written) => observeResponse(ctx, req, status, written)));
  await app.register(auditRoutes);
}
