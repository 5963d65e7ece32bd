import { queryOptions, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const getDataset = (id: string, signal?: AbortSignal) => api.get<Dataset>(`/v1/datasets/${encodeURIComponent(id)}`, signal);

/** Key shared with the realtime bridge, which merges `dataset.updated` into it. */
export const datasetQueryKey = (id: string) => ['datasets', id] as const;

export const datasetQueryOptions = (id: string) => queryOptions({ queryKey: datasetQueryKey(id), queryFn: ({ signal }) => getDataset(id, signal) });

/** The cached copy paints at once; the page still asks again, since list updates only merge a status into it. */
export const useDataset = (id: string, options: Pick<UseQueryOptions<Dataset, Error, Dataset, ReturnType<typeof datasetQueryKey>>, 'refetchInterval'> = {}) =>
  useQuery({ ...datasetQueryOptions(id), refetchOnMount: 'always', ...options });
