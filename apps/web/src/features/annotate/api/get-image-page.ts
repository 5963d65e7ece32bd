import { queryOptions, useQueries } from '@tanstack/react-query';
import type { DatasetImagesPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** The editor's list asks for one page of images at a time, only the pages its visible rows need. */
export const IMAGE_PAGE_SIZE = 50;

export const getImagePage = (datasetId: string, page: number, signal?: AbortSignal) =>
  api.get<DatasetImagesPage>(
    `/v1/datasets/${encodeURIComponent(datasetId)}/images?${new URLSearchParams({ offset: String(page * IMAGE_PAGE_SIZE), limit: String(IMAGE_PAGE_SIZE) })}`,
    signal,
  );

export const imagePageQueryOptions = (datasetId: string, page: number) =>
  queryOptions({
    queryKey: ['datasets', datasetId, 'annotate-page', page] as const,
    queryFn: ({ signal }) => getImagePage(datasetId, page, signal),
    staleTime: 60_000,
  });

export const useImagePages = (datasetId: string, pages: number[]) => useQueries({ queries: pages.map((p) => imagePageQueryOptions(datasetId, p)) });
