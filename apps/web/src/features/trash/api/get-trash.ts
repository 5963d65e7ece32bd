import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { TrashItem, TrashPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { trashKeys } from '../../../lib/query-keys';

const PAGE = 50;

/** A page of the user's soft-deleted datasets, projects and models, newest deletion first, with the whole trash's count and bytes (keyset, ADR 0042). */
export const getTrash = (cursor: string | null, signal?: AbortSignal) =>
  api.get<TrashPage>(`/v1/trash?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, signal);

export const trashQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: trashKeys.all,
    queryFn: ({ pageParam, signal }) => getTrash(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });

export const useTrash = () => useInfiniteQuery(trashQueryOptions());

/** The loaded pages without one item (restored or deleted), until the refetch that follows. */
export const withoutItem = (data: InfiniteData<TrashPage, string | null> | undefined, item: Pick<TrashItem, 'id' | 'type'>) =>
  data && {
    ...data,
    pages: data.pages.map((p) => {
      const items = p.items.filter((i) => !(i.id === item.id && i.type === item.type));
      return { ...p, items, count: p.count === null ? null : p.count - (p.items.length - items.length) };
    }),
  };
