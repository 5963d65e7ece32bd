import * as Sentry from '@sentry/node';
import type { FastifyRequest } from 'fastify';
import { ERROR_TRACE_SAMPLE_RATE, scrubBreadcrumb, scrubEvent } from '@sightline/contracts';

/**
 * Error monitoring (docs/deploy.md §8): with SENTRY_DSN set, server errors (5xx and crashes) and a 0.3
 * sample of traces (spec §9) go to any Sentry-compatible service through the official SDK. Every
 * event passes the shared scrubber first (cookies, authorization and API-key headers, secret query
 * parameters, secret-looking fields). Without SENTRY_DSN the SDK is never initialised.
 */
export interface MonitoringOptions {
  dsn: string;
  environment: string;
  release: string;
}

export interface Monitoring {
  captureRequestError(request: FastifyRequest, error: unknown): void;
  flush(timeoutMs?: number): Promise<boolean>;
}

let initialisedDsn: string | null = null;

export function isMonitoringInitialised() {
  return Sentry.getClient() !== undefined;
}

/** Idempotent per process (the SDK is global): main.ts calls it before the app is imported, so http and Fastify are instrumented. */
export function initMonitoring(opts: MonitoringOptions | null): Monitoring | null {
  if (!opts) return null;
  if (initialisedDsn !== opts.dsn) {
    Sentry.init({
      dsn: opts.dsn,
      environment: opts.environment,
      release: opts.release,
      tracesSampleRate: ERROR_TRACE_SAMPLE_RATE,
      sendDefaultPii: false,
      // Errors are captured once, by the app's onError hook below (with the request attached for
      // scrubbing); the SDK's own Fastify error capture would report them without it.
      integrations: (defaults) => defaults.filter((i) => i.name !== 'Fastify'),
      beforeSend: (event) => scrubEvent(event),
      beforeSendTransaction: (event) => scrubEvent(event),
      beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
    });
    initialisedDsn = opts.dsn;
  }
  return {
    captureRequestError(request, error) {
      Sentry.withScope((scope) => {
        const [path, query = ''] = request.url.split('?', 2) as [string, string?];
        scope.setTag('request_id', request.id);
        scope.setTag('route', request.routeOptions?.url ?? 'unknown');
        if (request.principal) scope.setUser({ id: request.principal.user.id });
        // The request as it came (headers, cookies, query), the SDK's own request shape: beforeSend scrubs what must not leave.
        scope.setSDKProcessingMetadata({
          normalizedRequest: {
            method: request.method,
            url: `${request.protocol}://${request.host}${path}`,
            query_string: query,
            headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')])),
            cookies: request.cookies as Record<string, string> | undefined,
          },
        });
        Sentry.captureException(error);
      });
    },
    flush: (timeoutMs = 2000) => Sentry.flush(timeoutMs),
  };
}
