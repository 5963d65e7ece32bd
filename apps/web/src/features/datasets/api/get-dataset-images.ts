import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DatasetImagesPage } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { api } from '../../../lib/api-client';

export type { DatasetImagesPage } from '@sightline/contracts';
export interface ImagesQuery {
  split?: Split;
  offset: number;
  limit: number;
}

export function getDatasetImages(id: string, query: ImagesQuery, signal?: AbortSignal) {
  const qs = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.split) qs.set('split', query.split);
  return api.get<DatasetImagesPage>(`/v1/datasets/${encodeURIComponent(id)}/images?${qs}`, signal);
}

export const datasetImagesQueryOptions = (id: string, query: ImagesQuery) =>
  queryOptions({ queryKey: ['datasets', id, 'images', query] as const, queryFn: ({ signal }) => getDatasetImages(id, query, signal) });

export const useDatasetImages = (id: string, query: ImagesQuery, enabled = true) =>
  useQuery({ ...datasetImagesQueryOptions(id, query), enabled, placeholderData: keepPreviousData });
