import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/query-keys';

/** Spec §3: by `order` when any model has one (order starts at 1), else most recently updated first. */
export function sortProjectModels(models: Model[]): Model[] {
  const anyOrder = models.some((m) => typeof m.order === 'number');
  const last = Number.MAX_SAFE_INTEGER;
  return models.slice().sort((a, b) => (anyOrder ? (a.order ?? last) - (b.order ?? last) : Date.parse(b.dates.updated) - Date.parse(a.dates.updated)));
}

/** The models of a project; the server sends them sorted, sorting again keeps optimistic updates in the same rule. */
export const getProjectModels = async (id: string, signal?: AbortSignal) =>
  sortProjectModels(await api.get<Model[]>(`/v1/projects/${encodeURIComponent(id)}/models`, signal));

export const projectModelsQueryOptions = (id: string) =>
  queryOptions({ queryKey: projectKeys.models(id), queryFn: ({ signal }) => getProjectModels(id, signal) });

export const useProjectModels = (id: string) => useQuery(projectModelsQueryOptions(id));
