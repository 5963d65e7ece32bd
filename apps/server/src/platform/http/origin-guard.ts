import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './auth-context.js';
import { errors } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SAME_SITE_FETCH = new Set(['same-origin', 'none']);

/** True for `application/json` and `application/*+json`: a browser only sends those cross-site after a CORS preflight we never grant. */
export function isJsonContentType(value: string | undefined): boolean {
  const type = (value ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Cross-site request forgery guard (ADR 0014). A write authenticated by the session
 * cookie (not by `x-api-key` or `Authorization`, which a browser never adds on its own) passes when
 * its body is JSON, or when the browser says it is same-origin: `Sec-Fetch-Site: same-origin|none`,
 * else an `Origin` equal to this server's (PUBLIC_URL or the request's own origin). A browser always
 * sends one of the two on a cross-site POST, so a request with neither comes from a non-browser
 * client (curl, tests) and is not a forgery. SameSite=Lax stays as a second line.
 */
export function originGuard(opts: { publicUrl?: string | null }) {
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : null;
  return async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.principal?.via !== 'session' || !request.cookies?.[SESSION_COOKIE]) return;
    if (header(request, 'x-api-key') || header(request, 'authorization')) return;
    if (isJsonContentType(header(request, 'content-type'))) return;
    const fetchSite = header(request, 'sec-fetch-site')?.toLowerCase();
    const origin = header(request, 'origin');
    if (fetchSite !== undefined) {
      if (SAME_SITE_FETCH.has(fetchSite)) return;
    } else if (origin === undefined) {
      return;
    } else if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) {
      return;
    }
    throw errors.forbidden('Cross-site request refused: send it from this site, or as JSON');
  };
}
