import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The request an audit entry is written for (its IP, user agent and principal), and how many entries it wrote. */
interface AuditScope {
  request: FastifyRequest;
  written: number;
}

const storage = new AsyncLocalStorage<AuditScope>();
const resources = new WeakMap<FastifyRequest, AsyncResource>();

/** The current request's scope, if the code runs inside one. */
export const currentAuditScope = () => storage.getStore() ?? null;

/**
 * Makes the current request reachable from services (so an audit entry gets the caller's IP and
 * user agent without every service signature carrying them). The scope is re-entered before
 * validation because body parsing runs outside the request's async context (the pattern of
 * @fastify/request-context). `observe` runs before each response is sent (see audit.service.ts
 * observeResponse: failed sign-ins, and a generic entry for admin mutations that wrote none).
 */
export function auditContext(observe: (request: FastifyRequest, status: number, written: number) => Promise<void>) {
  return fp(async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      storage.run({ request, written: 0 }, () => {
        const resource = new AsyncResource('sightline-audit');
        resources.set(request, resource);
        resource.runInAsyncScope(done, request.raw);
      });
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const resource = resources.get(request);
      if (resource) resource.runInAsyncScope(done, request.raw);
      else done();
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const scope = storage.getStore();
      if (scope?.request === request) await observe(request, reply.statusCode, scope.written);
      return payload;
    });
  });
}
