import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authContext } from '../../platform/http/auth-context.js';
import { originGuard } from '../../platform/http/origin-guard.js';
import { RUN_KEY_ROUTES } from '../api-keys/api-keys.scope.js';
import { authRoutes } from './auth.routes.js';
import { resolveApiKey, resolveSession } from './auth.service.js';
import { mailLinksRoutes } from './mail-links.routes.js';
import { oauthRoutes } from './oauth.routes.js';
import { securityRoutes } from './security.routes.js';
import { apiKeyFailureGuard } from './throttle.service.js';

/**
 * Who is calling: the caller resolved once per request (cookie session, x-api-key, Bearer; run keys
 * limited to their routes), throttled bad keys, same-origin cookie writes; then sign-up/in/out,
 * OAuth, the credential checks of account changes (users/account.routes.ts), mail links and the security failures page. First in app.ts: every other
 * module's routes rely on `request.principal`.
 */
export async function register(app: FastifyInstance, ctx: AppContext) {
  await app.register(authContext, {
    resolveApiKey: (key) => resolveApiKey(ctx, key),
    resolveSession: (token) => resolveSession(ctx, token),
    scopedRoutes: RUN_KEY_ROUTES,
  });
  // Invalid API keys count against the IP (429 when blocked); cookie writes must be same-origin or JSON (ADR 0014).
  app.addHook('onRequest', apiKeyFailureGuard(ctx));
  app.addHook('onRequest', originGuard({ publicUrl: ctx.config.publicUrl }));
  await app.register(securityRoutes);
  await app.register(authRoutes);
  await app.register(oauthRoutes);
  await app.register(mailLinksRoutes);
}
