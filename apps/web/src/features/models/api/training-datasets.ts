import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { fetchAllPages } from '../../../lib/paged-list';

/** The user's processed datasets: the ones a run can train on. */
export const getProcessedDatasets = async (signal?: AbortSignal) =>
  (await fetchAllPages<Dataset>('/v1/datasets', { processed: 'true' }, signal)).filter((d) => !d.dates.deleted && !d.dates.archived);

export const processedDatasetsQueryOptions = () =>
  queryOptions({ queryKey: ['training', 'datasets'] as const, queryFn: ({ signal }) => getProcessedDatasets(signal) });

export const useProcessedDatasets = (enabled = true) => useQuery({ ...processedDatasetsQueryOptions(), enabled });

/** One dataset, for its slug in the `ul://` URI of the training command. */
export const getTrainingDataset = (id: string, signal?: AbortSignal) => api.get<Dataset>(`/v1/datasets/${encodeURIComponent(id)}`, signal);

export const useTrainingDataset = (id: string | null | undefined) =>
  useQuery({ queryKey: ['training', 'dataset', id ?? ''] as const, queryFn: ({ signal }) => getTrainingDataset(id!, signal), enabled: Boolean(id) });
