import { queryOptions, useQuery } from '@tanstack/react-query';
import { APP_ENVIRONMENT, APP_VERSION, REMOTE_CONFIG_DEFAULTS, REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS, type RemoteConfig } from '@sightline/contracts';
import { api } from './api-client';
import { createLogger, type Logger } from './logger';
import { startMonitoring } from './monitoring';

const log = createLogger('config');

export const FALLBACK_CONFIG: RemoteConfig = {
  flags: { ...REMOTE_CONFIG_DEFAULTS },
  version: APP_VERSION,
  environment: APP_ENVIRONMENT,
  providers: [],
  mail: { enabled: false, verificationRequired: false },
  monitoring: null,
};

export async function getRemoteConfig(signal?: AbortSignal): Promise<RemoteConfig> {
  return api.get<RemoteConfig>('/v1/config', signal);
}

/** Minimum fetch interval of spec §9: 0 for the first fetch, then 3,600,000 ms. */
export const FIRST_MIN_FETCH_INTERVAL_MS = 0;

export interface RemoteConfigFetcher {
  /** the active config: the defaults until a fetch succeeds, then the last fetched one */
  readonly config: RemoteConfig;
  /** the interval in force now (0 until the first successful fetch, then the spec's hour) */
  readonly minimumFetchIntervalMs: number;
  /**
   * Fetches unless the last successful fetch is younger than the minimum interval, and activates
   * the result. Never throws: a failed fetch is logged and the active config (defaults at first) stays.
   */
  fetchAndActivate(signal?: AbortSignal): Promise<RemoteConfig>;
}

/** The remote-config client of spec §9 (as Firebase Remote Config's fetchAndActivate behaves). */
export function createRemoteConfigFetcher(deps: {
  fetch: (signal?: AbortSignal) => Promise<RemoteConfig>;
  now?: () => number;
  log?: Pick<Logger, 'warn'>;
}): RemoteConfigFetcher {
  const now = deps.now ?? Date.now;
  const logger = deps.log ?? log;
  let config = FALLBACK_CONFIG;
  let minimumFetchIntervalMs = FIRST_MIN_FETCH_INTERVAL_MS;
  let lastSuccessAt: number | null = null;
  return {
    get config() {
      return config;
    },
    get minimumFetchIntervalMs() {
      return minimumFetchIntervalMs;
    },
    async fetchAndActivate(signal) {
      if (lastSuccessAt !== null && now() - lastSuccessAt < minimumFetchIntervalMs) return config;
      try {
        config = { ...FALLBACK_CONFIG, ...(await deps.fetch(signal)) };
        lastSuccessAt = now();
        minimumFetchIntervalMs = REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS;
      } catch (error) {
        // Spec §8: a failed remote-config fetch is logged; the defaults (or the last good config) stay.
        logger.warn('remote config fetch failed, using defaults', error);
      }
      return config;
    },
  };
}

const fetcher = createRemoteConfigFetcher({ fetch: getRemoteConfig });

/** First fetch at once, then at most every hour (spec §9); the fetcher throttles and never throws. */
export const configQueryOptions = () =>
  queryOptions({
    queryKey: ['config'] as const,
    queryFn: async ({ signal }) => {
      const config = await fetcher.fetchAndActivate(signal);
      void startMonitoring(config.monitoring).catch((error: unknown) => log.warn('error monitoring did not start', error));
      return config;
    },
    staleTime: REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS,
    refetchInterval: REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS,
  });

export function useRemoteConfig(): { config: RemoteConfig; isPending: boolean } {
  const query = useQuery(configQueryOptions());
  return { config: query.data ?? FALLBACK_CONFIG, isPending: query.isPending };
}
