import type { QueryClient } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { MODELS_WITH_ARCHIVED } from './get-models';
import { refreshModelContainers, storeModel } from './model-cache';

/** POST /v1/models/{id}/archive or /unarchive (spec §4 dates.archived), then the page and the lists refresh. */
export async function setModelArchived(queryClient: QueryClient, id: string, archived: boolean): Promise<Model> {
  const model = await api.post<Model>(`/v1/models/${encodeURIComponent(id)}/${archived ? 'archive' : 'unarchive'}`);
  storeModel(queryClient, model);
  await Promise.all([refreshModelContainers(queryClient, model.project.id), queryClient.invalidateQueries({ queryKey: MODELS_WITH_ARCHIVED })]);
  return model;
}
