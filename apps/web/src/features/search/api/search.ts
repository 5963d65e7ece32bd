import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RecentList } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/search: the caller's datasets, projects, models and teams whose name contains `q`. */
export const searchItems = (q: string, limit: number, signal?: AbortSignal) =>
  api.get<RecentList>(`/v1/search?${new URLSearchParams({ q, limit: String(limit) })}`, signal);

export const useSearchItems = (q: string, limit = 10) => {
  const text = q.trim();
  return useQuery({
    queryKey: ['search', text, limit] as const,
    queryFn: ({ signal }) => searchItems(text, limit, signal),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
};
