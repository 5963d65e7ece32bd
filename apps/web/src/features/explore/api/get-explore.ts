import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ExploreKind, ExplorePage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export interface ExploreFilter {
  q: string;
  kind: ExploreKind | null;
}

/** GET /v1/explore: others' public datasets, projects and models, newest first, one page per cursor. */
export const getExplore = (f: ExploreFilter, cursor: string | null, signal?: AbortSignal) => {
  const qs = new URLSearchParams({ limit: '24' });
  if (f.q.trim()) qs.set('q', f.q.trim());
  if (f.kind) qs.set('kind', f.kind);
  if (cursor) qs.set('cursor', cursor);
  return api.get<ExplorePage>(`/v1/explore?${qs}`, signal);
};

export const exploreKeys = { list: (f: ExploreFilter) => ['explore', f.kind ?? 'all', f.q.trim()] as const };

export const useExplore = (f: ExploreFilter) =>
  useInfiniteQuery({
    queryKey: exploreKeys.list(f),
    queryFn: ({ pageParam, signal }) => getExplore(f, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });
