import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@sightline/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setSessionCookie } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { createSession } from './auth.service.js';
import { finishAuthorization, providerClient, socialSignIn, startAuthorization, type OAuthState } from './oauth.js';

const STATE_COOKIE = 'sl_oauth';

export async function oauthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const params = z.object({ provider: z.enum(['google', 'github', 'apple', 'oidc']) });
  const redirectUri = (req: FastifyRequest, provider: string) => `${ctx.baseUrl(origin(req))}/v1/auth/oauth/${provider}/callback`;

  r.get('/v1/auth/oauth/:provider', { schema: { tags: ['auth'], params } }, async (req, reply) => {
    const client = await providerClient(ctx.config, req.params.provider);
    const { url, state } = await startAuthorization(client, redirectUri(req, req.params.provider));
    reply.setCookie(STATE_COOKIE, JSON.stringify(state), {
      signed: true,
      httpOnly: true,
      // Apple's form_post callback is a cross-site POST: Lax cookies would not come back.
      sameSite: req.params.provider === 'apple' ? 'none' : 'lax',
      secure: req.params.provider === 'apple' || req.protocol === 'https',
      path: '/v1/auth/oauth',
      maxAge: 600,
    });
    return reply.redirect(url);
  });

  const callback = async (req: FastifyRequest<{ Params: { provider: string } }>, reply: FastifyReply) => {
    const provider = req.params.provider;
    const raw = req.cookies[STATE_COOKIE];
    const unsigned = raw ? req.unsignCookie(raw) : null;
    reply.clearCookie(STATE_COOKIE, { path: '/v1/auth/oauth' });
    if (!unsigned?.valid || !unsigned.value) return fail(reply, ErrorCode.OAuthInvalidState);
    const saved = JSON.parse(unsigned.value) as OAuthState;
    if (saved.provider !== provider) return fail(reply, ErrorCode.OAuthInvalidState);
    try {
      const client = await providerClient(ctx.config, provider);
      const current = new URL(req.url, `${ctx.baseUrl(origin(req))}`);
      const profile = await finishAuthorization(client, current, saved, req.method === 'POST' ? (req.body as Record<string, string>) : undefined);
      const outcome = await socialSignIn(ctx, provider, profile);
      if (outcome.kind === 'error') return fail(reply, outcome.code);
      setSessionCookie(req, reply, await createSession(ctx, outcome.user.id, req.headers['user-agent']), ctx.config.sessionTtlMs);
      return reply.redirect(`/home?auth=${outcome.result}`);
    } catch (err) {
      req.log.warn({ err: (err as Error).message, provider }, 'social sign-in failed');
      return fail(reply, err instanceof AppError ? err.code : ErrorCode.OAuthFailed);
    }
  };
  r.get('/v1/auth/oauth/:provider/callback', { schema: { tags: ['auth'], params } }, callback);
  r.post('/v1/auth/oauth/:provider/callback', { schema: { tags: ['auth'], params } }, callback);
}

function fail(reply: FastifyReply, code: string) {
  return reply.redirect(`/signin?error=${encodeURIComponent(code)}`);
}

function origin(req: FastifyRequest) {
  return `${req.protocol}://${req.host}`;
}
