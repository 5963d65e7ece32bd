import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's response headers, worked out once. @fastify/helmet builds a new helmet middleware on every
 * request, which re-parses the CSP directives each time (about 6% of the server's CPU on a warm
 * `GET /v1/users/me`, issue 18). With static options (no nonces, no directive functions) the headers
 * are the same for every response, so they are computed at start and set as they are.
 */
export function helmetHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...headers];
}

/** Sets the headers on the raw response at the start of every request, as @fastify/helmet did (hijacked replies get them too). */
export const securityHeaders = fp<HelmetOptions>(async (app, options) => {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
});
