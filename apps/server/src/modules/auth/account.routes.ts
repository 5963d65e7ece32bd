import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAccountBody, updateEmailBody, updatePasswordBody, userSchema } from '@sightline/contracts';
import { clearSessionCookie, requireSession } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { presentUserById } from '../users/users.service.js';
import { linkOriginOf } from '../../platform/http/link-origin.js';
import { changeEmail, deleteAccount, updatePassword } from './auth.service.js';
import { callerOf } from './throttle.service.js';

/** Credentials of the signed-in account: password, email, deletion (re-authenticated, browser session only). */
export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.post('/v1/users/me/password', { config: { auth: 'session' }, schema: { tags: ['users'], body: updatePasswordBody, response: { 200: okSchema, ...errorResponses } } }, async (req) => {
    const p = requireSession(req);
    await updatePassword(ctx, p.user, req.body.currentPassword, req.body.newPassword, p.sessionId, callerOf(req));
    return ok;
  });

  r.post('/v1/users/me/email', { config: { auth: 'session' }, schema: { tags: ['users'], body: updateEmailBody, response: { 200: z.object({ data: userSchema }), ...errorResponses } } }, async (req) => {
    const p = requireSession(req);
    await changeEmail(ctx, p.user, req.body.email, req.body.password, linkOriginOf(req, ctx.config.trustProxy.length > 0), callerOf(req));
    return { data: await presentUserById(app, p.user.id) };
  });

  r.delete('/v1/users/me', { config: { auth: 'session' }, schema: { tags: ['users'], body: deleteAccountBody.optional(), response: { 200: okSchema, ...errorResponses } } }, async (req, reply) => {
    const p = requireSession(req);
    await deleteAccount(ctx, p.user, req.body?.password, callerOf(req));
    clearSessionCookie(reply);
    return ok;
  });
}
