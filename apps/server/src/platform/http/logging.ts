import { scrubText } from '@sightline/contracts';
import type { Config } from '../../config.js';

/** pino options: credentials in headers and query strings never reach the log. */
export function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    serializers: {
      // Mail links and signed URLs carry secrets in the query string: log the path, not them.
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

const SECRET_PARAMS = /([?&](?:token|sig|api_key|key|exp)=)[^&]*/gi;
/** A URL as logged: secret query parameters, and keys or tokens anywhere in it (a client may put an API key in the path), replaced. */
export function redactUrl(url: string): string {
  return scrubText(url).replace(SECRET_PARAMS, '$1[redacted]');
}
