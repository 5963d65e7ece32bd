import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorCode,
  authResultSchema,
  passwordRequestBody,
  passwordResetBody,
  resendVerificationBody,
  signInBody,
  signUpBody,
  userSchema,
  verifyBody,
} from '@sightline/contracts';
import { clearSessionCookie, setSessionCookie } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { AppError } from '../../platform/http/errors.js';
import { linkOriginOf } from '../../platform/http/link-origin.js';
import { accountRoutes } from '../users/account.routes.js';
import { presentUser } from '../users/users.presenter.js';
import * as auth from './auth.service.js';
import { callerOf, setDeviceCookie, trustedDevice } from './throttle.service.js';

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  // Credential endpoints get a tighter body limit: nothing legitimate is bigger.
  const small = { bodyLimit: 16 * 1024 };
  // Links in mails: PUBLIC_URL, else the origin the browser used (ADR 0018).
  const linkOrigin = (req: FastifyRequest) => linkOriginOf(req, ctx.config.trustProxy.length > 0);

  // Account changes are filed with the user's routes (users/account.routes.ts); their credential checks are auth's.
  accountRoutes(app, {
    updatePassword: (req, p, current, next) => auth.updatePassword(ctx, p.user, current, next, p.sessionId, callerOf(req)),
    changeEmail: (req, p, email, password) => auth.changeEmail(ctx, p.user, email, password, linkOrigin(req), callerOf(req)),
    deleteAccount: (req, p, password) => auth.deleteAccount(ctx, p.user, password, callerOf(req)),
  });

  r.post(
    '/v1/auth/signup',
    { ...small, schema: { tags: ['auth'], body: signUpBody, response: { 201: z.object({ data: authResultSchema }), ...errorResponses } } },
    async (req, reply) => {
      // An invite link sent to this address proves it (the invite's team page comes next, not a mail).
      const proven = req.body.invite ? await auth.inviteProvesAddress(ctx, req.body.invite, req.body.email) : false;
      const user = await auth.signUp(ctx, req.body, linkOrigin(req), proven);
      const verificationRequired = auth.verificationRequired(ctx) && !proven;
      if (!verificationRequired) setSessionCookie(req, reply, await auth.createSession(ctx, user.id, req.headers['user-agent']), ctx.config.sessionTtlMs);
      return reply.status(201).send({ data: { user: presentUser(user), result: 'signup-successful' as const, verificationRequired } });
    },
  );

  r.post(
    '/v1/auth/signin',
    { ...small, schema: { tags: ['auth'], body: signInBody, response: { 200: z.object({ data: authResultSchema }), ...errorResponses } } },
    async (req, reply) => {
      const user = await auth.signIn(ctx, req.body.email, req.body.password, { ...callerOf(req), device: trustedDevice(ctx, req, req.body.email) });
      setSessionCookie(req, reply, await auth.createSession(ctx, user.id, req.headers['user-agent']), ctx.config.sessionTtlMs);
      setDeviceCookie(ctx, req, reply, req.body.email);
      return { data: { user: presentUser(user), result: 'signin-successful' as const, verificationRequired: false } };
    },
  );

  r.post('/v1/auth/signout', { schema: { tags: ['auth'], response: { 200: okSchema } } }, async (req, reply) => {
    if (req.principal?.sessionId) {
      await auth.endSession(ctx, req.principal.sessionId, req.principal.user.id);
      await ctx.events.emit('user.signedOut', req.principal.user.id, { userId: req.principal.user.id });
    }
    clearSessionCookie(reply);
    return ok;
  });

  r.post(
    '/v1/auth/verify',
    { ...small, schema: { tags: ['auth'], body: verifyBody, response: { 200: z.object({ data: z.object({ user: userSchema }) }), ...errorResponses } } },
    async (req) => {
      const user = await auth.verifyEmail(ctx, req.body.token, callerOf(req));
      return { data: { user: presentUser(user) } };
    },
  );

  // The link in the verification mail: verify, then land on the sign-in page with the outcome.
  r.get('/v1/auth/verify', { schema: { tags: ['auth'], querystring: z.object({ token: z.string().max(200) }) } }, async (req, reply) => {
    try {
      await auth.verifyEmail(ctx, req.query.token, callerOf(req));
      return reply.redirect('/signin?verified=1');
    } catch (err) {
      const code = err instanceof AppError ? err.code : ErrorCode.Unknown;
      return reply.redirect(`/signin?error=${encodeURIComponent(code)}`);
    }
  });

  r.post(
    '/v1/auth/verify/resend',
    { ...small, schema: { tags: ['auth'], body: resendVerificationBody, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await auth.resendVerification(ctx, req.body.email, callerOf(req), linkOrigin(req));
      return ok;
    },
  );

  r.post(
    '/v1/auth/password/request',
    { ...small, schema: { tags: ['auth'], body: passwordRequestBody, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await auth.requestPasswordReset(ctx, req.body.email, callerOf(req), linkOrigin(req));
      return ok;
    },
  );

  r.post(
    '/v1/auth/password/reset',
    { ...small, schema: { tags: ['auth'], body: passwordResetBody, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await auth.resetPassword(ctx, req.body.token, req.body.password, callerOf(req));
      return ok;
    },
  );

  /** `yolo login` / hub-sdk key check (hub-protocol §5.1): always JSON, status ignored by clients. */
  r.post(
    '/v1/auth',
    {
      schema: {
        tags: ['compat'],
        response: {
          200: z.object({ success: z.literal(true), data: z.object({ uid: z.string(), username: z.string() }) }),
          401: z.object({ success: z.literal(false), message: z.string() }),
        },
      },
    },
    async (req, reply) => {
      if (req.principal) return { success: true as const, data: { uid: req.principal.user.id, username: req.principal.user.username } };
      return reply.status(401).send({ success: false as const, message: req.credentialError ? 'Invalid API key' : 'No API key provided' });
    },
  );
}
