import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's response headers, worked out once. @fastify/helmet builds a new helmet middleware on every
 * request, which re-parses the CSP directives each time (about 6% of the server's CPU on a warm
 * `GET /v1/users/me`). With static options (no nonces, no directive functions) the headers
 * are the same for every response, so they are computed at start and set as they are.
 */
export function helmetHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...headers];
}

/**
 * The paths any site may frame. Spec §2: "/403 allowed inside an iframe" — the SPA's iframe guard
 * sends every framed page to /403, so /403 alone answers without X-Frame-Options and with
 * `frame-ancestors *`; every other path keeps SAMEORIGIN / `frame-ancestors 'self'`.
 */
export const FRAMEABLE_PATHS: ReadonlySet<string> = new Set(['/403']);

/** The same headers, minus the framing refusal: for FRAMEABLE_PATHS. */
function frameableOptions(options: HelmetOptions): HelmetOptions {
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? { ...csp.directives, frameAncestors: ['*'] } : { frameAncestors: ['*'] };
  return { ...options, frameguard: false, contentSecurityPolicy: { ...(csp && typeof csp === 'object' ? csp : {}), directives } } as HelmetOptions;
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** Sets the headers on the raw response at the start of every request, as @fastify/helmet did (hijacked replies get them too). */
export const securityHeaders = fp<HelmetOptions>(async (app, options) => {
  const headers = helmetHeaders(options);
  const frameable = helmetHeaders(frameableOptions(options));
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of FRAMEABLE_PATHS.has(pathOf(request.url)) ? frameable : headers) reply.raw.setHeader(name, value);
    done();
  });
});
