import { queryOptions, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';

/** The id of the "uploaded and being processed" notice of one dataset, so that it goes once processing ends. */
export const processingNoticeId = (id: string) => `dataset-processing:${id}`;

/** Every read of a dataset goes through here (page, list, realtime): a Ready or Failed one takes its stale notice away. */
export const getDataset = (id: string, signal?: AbortSignal) =>
  api.get<Dataset>(`/v1/datasets/${encodeURIComponent(id)}`, signal).then((dataset) => {
    if (dataset.status === 'Ready' || dataset.status === 'Failed') notifications.dismiss(processingNoticeId(dataset.id));
    return dataset;
  });

/** Key shared with the realtime bridge, which merges `dataset.updated` into it. */
export const datasetQueryKey = (id: string) => ['datasets', id] as const;

export const datasetQueryOptions = (id: string) => queryOptions({ queryKey: datasetQueryKey(id), queryFn: ({ signal }) => getDataset(id, signal) });

/** The cached copy paints at once; the page still asks again, since list updates only merge a status into it. */
export const useDataset = (id: string, options: Pick<UseQueryOptions<Dataset, Error, Dataset, ReturnType<typeof datasetQueryKey>>, 'refetchInterval'> = {}) =>
  useQuery({ ...datasetQueryOptions(id), refetchOnMount: 'always', ...options });
