import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { fetchAllPages } from '../../../lib/paged-list';
import { modelKeys } from '../../../lib/query-keys';

/** Lists hide deleted and archived items (spec §4). */
export const isListed = (m: Pick<Model, 'dates'>) => !m.dates.deleted && !m.dates.archived;

/** All of the signed-in user's models, most recently updated first. */
export const getModels = async (signal?: AbortSignal) => (await fetchAllPages<Model>('/v1/models', {}, signal)).filter(isListed);

export const modelsQueryOptions = () => queryOptions({ queryKey: modelKeys.all, queryFn: ({ signal }) => getModels(signal) });

export const useModels = () => useQuery(modelsQueryOptions());

/** The list with archived models too (the "Show archived" filter); deleted ones stay out. */
export const MODELS_WITH_ARCHIVED = ['models-with-archived'] as const;
export const useModelsWithArchived = (enabled: boolean) =>
  useQuery({
    queryKey: MODELS_WITH_ARCHIVED,
    queryFn: async ({ signal }) => (await fetchAllPages<Model>('/v1/models', { includeArchived: 'true' }, signal)).filter((m) => !m.dates.deleted),
    enabled,
  });
