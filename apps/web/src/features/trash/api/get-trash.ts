import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrashItem } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { trashKeys } from '../../../lib/query-keys';

/** Every soft-deleted dataset, project and model of the user, with its expiry (30 days). */
export const getTrash = (signal?: AbortSignal) => api.get<TrashItem[]>('/v1/trash', signal);

export const trashQueryOptions = () => queryOptions({ queryKey: trashKeys.all, queryFn: ({ signal }) => getTrash(signal), staleTime: 0 });

export const useTrash = () => useQuery(trashQueryOptions());
