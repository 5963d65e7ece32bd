import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAccountBody, updateEmailBody, updatePasswordBody, userSchema } from '@sightline/contracts';
import { clearSessionCookie, requireSession, type Principal } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { presentUserById } from './users.service.js';

/**
 * The credential checks behind account changes (current password, throttles, sessions, mail tokens)
 * are auth's: auth.routes.ts registers these routes with them, and users imports nothing of auth.
 */
export interface AccountChanges {
  updatePassword(req: FastifyRequest, principal: Principal, currentPassword: string, newPassword: string): Promise<unknown>;
  changeEmail(req: FastifyRequest, principal: Principal, email: string, password: string): Promise<unknown>;
  deleteAccount(req: FastifyRequest, principal: Principal, password: string | undefined): Promise<unknown>;
}

/** Credentials of the signed-in account: password, email, deletion (re-authenticated, browser session only). */
export function accountRoutes(app: FastifyInstance, changes: AccountChanges) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/users/me/password',
    { config: { auth: 'session' }, schema: { tags: ['users'], body: updatePasswordBody, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await changes.updatePassword(req, requireSession(req), req.body.currentPassword, req.body.newPassword);
      return ok;
    },
  );

  r.post(
    '/v1/users/me/email',
    { config: { auth: 'session' }, schema: { tags: ['users'], body: updateEmailBody, response: { 200: z.object({ data: userSchema }), ...errorResponses } } },
    async (req) => {
      const p = requireSession(req);
      await changes.changeEmail(req, p, req.body.email, req.body.password);
      return { data: await presentUserById(app, p.user.id) };
    },
  );

  r.delete(
    '/v1/users/me',
    { config: { auth: 'session' }, schema: { tags: ['users'], body: deleteAccountBody.optional(), response: { 200: okSchema, ...errorResponses } } },
    async (req, reply) => {
      await changes.deleteAccount(req, requireSession(req), req.body?.password);
      clearSessionCookie(reply);
      return ok;
    },
  );
}
