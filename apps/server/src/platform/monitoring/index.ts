import type { Monitoring, MonitoringOptions } from './sentry.js';

export type { Monitoring, MonitoringOptions };

/**
 * Error monitoring behind SENTRY_DSN (docs/deploy.md §8). The Sentry SDK (sentry.ts) is imported only when a DSN
 * is set: loading it costs about 12 MB of JS heap and 45 MB of RSS that a server without monitoring
 * would carry for nothing (idle memory).
 */
let sdk: typeof import('./sentry.js') | null = null;

/** Idempotent per process; see sentry.ts initMonitoring. Null, and nothing loaded, without options. */
export async function initMonitoring(opts: MonitoringOptions | null): Promise<Monitoring | null> {
  if (!opts) return null;
  sdk ??= await import('./sentry.js');
  return sdk.initMonitoring(opts);
}

/** Whether the SDK was loaded and initialised in this process. */
export function isMonitoringInitialised() {
  return sdk?.isMonitoringInitialised() ?? false;
}
