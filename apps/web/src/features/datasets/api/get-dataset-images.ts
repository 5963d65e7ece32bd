import { useInfiniteQuery } from '@tanstack/react-query';
import type { DatasetImagesPage } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { api } from '../../../lib/api-client';

export type { DatasetImagesPage } from '@sightline/contracts';
export interface ImagesQuery {
  split?: Split;
  limit: number;
}

/** One keyset page of the dataset's images (ADR 0042): the first without a cursor, each next one after the previous page's `nextCursor`. */
export function getDatasetImages(id: string, query: ImagesQuery, cursor: string | null, signal?: AbortSignal) {
  const qs = new URLSearchParams({ limit: String(query.limit) });
  if (query.split) qs.set('split', query.split);
  if (cursor) qs.set('cursor', cursor);
  return api.get<DatasetImagesPage>(`/v1/datasets/${encodeURIComponent(id)}/images?${qs}`, signal);
}

/** The images tab's list: pages read one after another on "Load more", each costing what the first does. */
export const useDatasetImages = (id: string, query: ImagesQuery, enabled = true) =>
  useInfiniteQuery({
    queryKey: ['datasets', id, 'images', query] as const,
    queryFn: ({ pageParam, signal }) => getDatasetImages(id, query, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    enabled,
  });
