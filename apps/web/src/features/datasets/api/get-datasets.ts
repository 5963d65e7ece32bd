import { queryOptions, useQuery } from '@tanstack/react-query';
import { getListOrEmpty } from '../../../lib/list-endpoint';

/** Minimal shape read by the shell until the datasets feature brings its contract. */
export interface DatasetSummary {
  id: string;
  meta?: { name?: string };
  dates?: { updated?: string | null; created?: string | null };
}

export const getDatasets = (signal?: AbortSignal) => getListOrEmpty<DatasetSummary>('/v1/datasets', signal);

export const datasetsQueryOptions = () => queryOptions({ queryKey: ['datasets'] as const, queryFn: ({ signal }) => getDatasets(signal) });

export const useDatasets = () => useQuery(datasetsQueryOptions());
