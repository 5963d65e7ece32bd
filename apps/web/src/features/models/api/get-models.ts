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
