import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@sightline/contracts';
import { errors } from './errors.js';

export const SESSION_COOKIE = 'sl_session';

export type AuthRequirement = 'user' | 'session' | 'admin';

/**
 * The signed-in user as the auth module loads it. Platform needs only these fields; the auth
 * module widens the interface to its full user row (declaration merging), so platform imports
 * no module and no schema.
 */
export interface PrincipalUser {
  id: string;
  roles: string[];
}

/** What a limited credential reaches (a cloud run's key, ADR 0023): these items only. */
export interface CredentialScope {
  /** items it works on (a run's model: read, update, train, download) */
  works: string[];
  /** items it only reads and downloads (the run's dataset, project, starting model) */
  reads: string[];
}

/** Who is calling: a user through a browser session or an API key (keys act with their owner's rights). */
export interface Principal {
  user: PrincipalUser;
  via: 'session' | 'api-key';
  sessionId?: string;
  apiKeyId?: string;
  /** set for a limited key: it reaches only these items, through `scopedRoutes` only */
  scope?: CredentialScope | null;
}

/** How credentials become a principal: given by the auth module when the app is built (platform imports no module). */
export interface AuthContextOptions {
  resolveApiKey(presented: string): Promise<Principal | null>;
  resolveSession(token: string): Promise<Principal | null>;
  /** `METHOD /route/:pattern` a principal with a scope may call; every other route answers 403 to it */
  scopedRoutes?: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Checked before body validation, so anonymous callers learn they must sign in first. */
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** set when the request presented credentials that did not resolve (revoked key, expired session) */
    credentialError: 'api-key' | 'session' | null;
  }
}

/**
 * Resolves who is calling, once per request: the session cookie, `x-api-key`, or
 * `Authorization: Bearer` (an API key or a session token). Routes then ask for what they need.
 */
export const authContext = fp(async (app: FastifyInstance, opts: AuthContextOptions) => {
  const { resolveApiKey, resolveSession, scopedRoutes = new Set<string>() } = opts;
  app.decorateRequest('principal', null);
  app.decorateRequest('credentialError', null);
  app.addHook('onRequest', async (request) => {
    const apiKey = header(request, 'x-api-key');
    const bearer = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization') ?? '')?.[1]?.trim();
    if (apiKey) {
      request.principal = await resolveApiKey(apiKey);
      if (!request.principal) request.credentialError = 'api-key';
      return;
    }
    if (bearer) {
      request.principal = bearer.startsWith('ul') ? await resolveApiKey(bearer) : await resolveSession(bearer);
      if (!request.principal) request.credentialError = bearer.startsWith('ul') ? 'api-key' : 'session';
      return;
    }
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (cookie) {
      request.principal = await resolveSession(cookie);
      if (!request.principal) request.credentialError = 'session';
    }
  });
  app.addHook('preValidation', async (request) => {
    if (request.principal?.scope && !scopedRoutes.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
      throw errors.forbidden("This key is limited to its training run's dataset and model");
    }
    const need = request.routeOptions.config?.auth;
    if (need === 'user') requireUser(request);
    else if (need === 'session') requireSession(request);
    else if (need === 'admin') requireAdmin(request);
  });
});

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function requireUser(request: FastifyRequest): Principal {
  if (request.principal) return request.principal;
  if (request.credentialError === 'api-key') throw errors.unauthorized('Invalid or revoked API key', ErrorCode.InvalidApiKey);
  throw errors.unauthorized();
}

export function requireSession(request: FastifyRequest): Principal {
  const p = requireUser(request);
  if (p.via !== 'session') throw errors.forbidden('This action needs a signed-in browser session, not an API key');
  return p;
}

export function requireAdmin(request: FastifyRequest): Principal {
  const p = requireUser(request);
  if (!p.user.roles.includes('admin')) throw errors.forbidden('Admins only');
  return p;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlMs: number) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
