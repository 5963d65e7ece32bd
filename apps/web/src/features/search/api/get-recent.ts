import { useQuery } from '@tanstack/react-query';
import type { RecentList } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/recent: the caller's datasets, projects and models, the last changed first. */
export const getRecent = (limit: number, signal?: AbortSignal) => api.get<RecentList>(`/v1/recent?limit=${limit}`, signal);

export const recentQueryKey = (limit: number) => ['recent', limit] as const;

/** Read again whenever Home opens: it is about what just happened. */
export const useRecent = (limit = 6) =>
  useQuery({ queryKey: recentQueryKey(limit), queryFn: ({ signal }) => getRecent(limit, signal), staleTime: 0, refetchOnMount: 'always' });
