import { scrubBreadcrumb, scrubEvent, type RemoteConfig } from '@sightline/contracts';

/**
 * Error monitoring in the browser (docs/deploy.md §8): only when the server's remote config carries a DSN
 * (SENTRY_DSN / SENTRY_WEB_DSN), @sentry/react is loaded (its own chunk, never in the startup
 * bundle) and initialised with the spec's trace sample rate (0.3) and the shared scrubber. With no
 * DSN nothing is loaded, initialised or sent.
 */
type Sentry = typeof import('@sentry/react');
let sdk: Sentry | null = null;
let starting: Promise<boolean> | null = null;

export function startMonitoring(monitoring: RemoteConfig['monitoring'], load: () => Promise<Sentry> = () => import('@sentry/react')): Promise<boolean> {
  if (!monitoring?.dsn) return starting ?? Promise.resolve(false);
  starting ??= load().then((Sentry) => {
    Sentry.init({
      dsn: monitoring.dsn,
      environment: monitoring.environment,
      release: monitoring.release,
      tracesSampleRate: monitoring.tracesSampleRate,
      sendDefaultPii: false,
      integrations: [Sentry.browserTracingIntegration()],
      beforeSend: (event) => scrubEvent(event),
      beforeSendTransaction: (event) => scrubEvent(event),
      beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
    });
    sdk = Sentry;
    return true;
  });
  return starting;
}

export const monitoringStarted = () => sdk !== null;

/** Reports an error caught by the app (route error boundary); a no-op when monitoring is off. */
export function reportError(error: unknown) {
  sdk?.captureException(error);
}
