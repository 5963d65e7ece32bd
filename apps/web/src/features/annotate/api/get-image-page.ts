import { queryOptions, useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DatasetImagesPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** The editor's list asks for one page of images at a time, only the pages its visible rows need. */
export const IMAGE_PAGE_SIZE = 50;

/**
 * Where a page starts: the first page from the top, the page after a loaded one by that page's cursor
 * (a keyset read that costs what the first does, ADR 0042), and only a jump to a page whose previous
 * page is not loaded (the scrollbar dragged, a link to `?i=`) by its position (`offset`).
 */
export type PageStart = { cursor: string } | { offset: number } | null;

export const getImagePage = (datasetId: string, start: PageStart, signal?: AbortSignal) => {
  const q = new URLSearchParams({ limit: String(IMAGE_PAGE_SIZE) });
  if (start && 'cursor' in start) q.set('cursor', start.cursor);
  else if (start && start.offset > 0) q.set('offset', String(start.offset));
  return api.get<DatasetImagesPage>(`/v1/datasets/${encodeURIComponent(datasetId)}/images?${q}`, signal);
};

const pageKey = (datasetId: string, page: number) => ['datasets', datasetId, 'annotate-page', page] as const;

/** The start of `page`: the previous page's cursor when it is loaded or on its way (waited for), else its position. */
export async function pageStart(queryClient: QueryClient, datasetId: string, page: number): Promise<PageStart> {
  if (page === 0) return null;
  const key = pageKey(datasetId, page - 1);
  const state = queryClient.getQueryState<DatasetImagesPage>(key);
  // A page on its way (the pages in view are asked for together) is waited for: fetchQuery joins its request.
  const before =
    state?.data ??
    (state?.fetchStatus === 'fetching'
      ? await queryClient.fetchQuery(imagePageQueryOptions(queryClient, datasetId, page - 1)).catch(() => undefined)
      : undefined);
  return before?.nextCursor ? { cursor: before.nextCursor } : { offset: page * IMAGE_PAGE_SIZE };
}

export const imagePageQueryOptions = (queryClient: QueryClient, datasetId: string, page: number) =>
  queryOptions({
    queryKey: pageKey(datasetId, page),
    queryFn: async ({ signal }) => getImagePage(datasetId, await pageStart(queryClient, datasetId, page), signal),
    staleTime: 60_000,
  });

export const useImagePages = (datasetId: string, pages: number[]) => {
  const queryClient = useQueryClient();
  return useQueries({ queries: pages.map((p) => imagePageQueryOptions(queryClient, datasetId, p)) });
};
