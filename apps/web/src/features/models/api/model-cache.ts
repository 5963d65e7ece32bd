import type { QueryClient } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { modelKeys, projectKeys } from '../../../lib/query-keys';

const replaceIn = (model: Model) => (list: Model[] | undefined) => list?.map((m) => (m.id === model.id ? model : m));

/** Puts a fresh copy of a model into every cached list and page that shows it. */
export function storeModel(queryClient: QueryClient, model: Model): void {
  queryClient.setQueryData<Model>(modelKeys.detail(model.id), model);
  queryClient.setQueryData<Model[]>(modelKeys.all, replaceIn(model));
  if (model.project.id) queryClient.setQueryData<Model[]>(projectKeys.models(model.project.id), replaceIn(model));
}

/** Adds a model at the front of the cached lists (spec §4: items are added at the front). */
export function addModel(queryClient: QueryClient, model: Model): void {
  queryClient.setQueryData<Model>(modelKeys.detail(model.id), model);
  const prepend = (list: Model[] | undefined) => (list ? [model, ...list.filter((m) => m.id !== model.id)] : list);
  queryClient.setQueryData<Model[]>(modelKeys.all, prepend);
}

/** Removes a model from the cached lists (the detail stays: its page shows it as deleted). */
export function dropModel(queryClient: QueryClient, id: string, projectId: string | null): void {
  const without = (list: Model[] | undefined) => list?.filter((m) => m.id !== id);
  queryClient.setQueryData<Model[]>(modelKeys.all, without);
  if (projectId) queryClient.setQueryData<Model[]>(projectKeys.models(projectId), without);
}

/** After a change that moves a model's bytes or dates: the project's totals and lists refetch. */
export function refreshModelContainers(queryClient: QueryClient, projectId: string | null): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: modelKeys.all, exact: true }),
    queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true }),
    // Prefix: the project page and its model list.
    projectId ? queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) }) : null,
  ]);
}
