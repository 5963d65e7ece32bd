import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKey } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const getApiKeys = (signal?: AbortSignal) => api.get<ApiKey[]>('/v1/api-keys', signal);

export const apiKeysQueryOptions = () => queryOptions({ queryKey: ['api-keys'] as const, queryFn: ({ signal }) => getApiKeys(signal) });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());
