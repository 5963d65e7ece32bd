import { queryOptions, useQuery } from '@tanstack/react-query';
import { APP_ENVIRONMENT, APP_VERSION, REMOTE_CONFIG_DEFAULTS, REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS, type RemoteConfig } from '@sightline/contracts';
import { api } from './api-client';
import { createLogger } from './logger';

const log = createLogger('config');

export const FALLBACK_CONFIG: RemoteConfig = {
  flags: { ...REMOTE_CONFIG_DEFAULTS },
  version: APP_VERSION,
  environment: APP_ENVIRONMENT,
  providers: [],
  mail: { enabled: false, verificationRequired: false },
};

export async function getRemoteConfig(signal?: AbortSignal): Promise<RemoteConfig> {
  try {
    return await api.get<RemoteConfig>('/v1/config', signal);
  } catch (error) {
    // Spec §8: a failed remote-config fetch is logged; the defaults apply.
    log.warn('remote config fetch failed, using defaults', error);
    throw error;
  }
}

/** First fetch at once, then at most every hour (spec §9). */
export const configQueryOptions = () =>
  queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => getRemoteConfig(signal),
    staleTime: REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS,
    retry: 1,
  });

export function useRemoteConfig(): { config: RemoteConfig; isPending: boolean } {
  const query = useQuery(configQueryOptions());
  return { config: query.data ?? FALLBACK_CONFIG, isPending: query.isPending };
}
