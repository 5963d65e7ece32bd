import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Messages, type Model } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { trashKeys } from '../../../lib/query-keys';
import { addModel, refreshModelContainers } from './model-cache';
import { tModels } from '../i18n';

export const restoreModel = (id: string) => api.post<Model>(`/v1/models/${encodeURIComponent(id)}/restore`);

/** 'Unable to restore model', with the reason when the server names one the user can act on. */
export function restoreModelError(error: unknown): string {
  return isApiError(error, 'error/parent-deleted') ? `${Messages.unableRestoreModel}: ${error.message}` : Messages.unableRestoreModel;
}

/** Restores and puts the model back in the lists; used by the hook and by the undo of a delete. */
export async function restoreModelAndRefresh(queryClient: QueryClient, id: string): Promise<Model | null> {
  try {
    const model = await restoreModel(id);
    addModel(queryClient, model);
    await Promise.all([refreshModelContainers(queryClient, model.project.id), queryClient.invalidateQueries({ queryKey: trashKeys.all })]);
    notifications.success(tModels('restored', { name: model.meta.name }));
    return model;
  } catch (error) {
    notifications.error(restoreModelError(error));
    return null;
  }
}

export function useRestoreModel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: string) => restoreModelAndRefresh(queryClient, id) });
}
