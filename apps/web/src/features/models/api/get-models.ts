import { queryOptions, useQuery } from '@tanstack/react-query';
import { getListOrEmpty } from '../../../lib/list-endpoint';

/** Minimal shape read by the shell until the models feature brings its contract. */
export interface ModelSummary {
  id: string;
  meta?: { name?: string };
  dates?: { updated?: string | null; created?: string | null };
}

export const getModels = (signal?: AbortSignal) => getListOrEmpty<ModelSummary>('/v1/models', signal);

export const modelsQueryOptions = () => queryOptions({ queryKey: ['models'] as const, queryFn: ({ signal }) => getModels(signal) });

export const useModels = () => useQuery(modelsQueryOptions());
