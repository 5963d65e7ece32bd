import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageUsage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { StorageUsage } from '@sightline/contracts';

export const getStorage = (signal?: AbortSignal) => api.get<StorageUsage>('/v1/users/me/storage', signal);

export const storageQueryOptions = () => queryOptions({ queryKey: ['storage'] as const, queryFn: ({ signal }) => getStorage(signal), staleTime: 0 });

export const useStorage = (enabled = true) => useQuery({ ...storageQueryOptions(), enabled });
