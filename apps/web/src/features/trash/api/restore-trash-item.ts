import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type TrashItem } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { trashKeys } from '../../../lib/query-keys';
import { refreshAfter } from './trash-cache';
import { tTrash } from '../i18n';

export const restoreTrashItem = (item: Pick<TrashItem, 'type' | 'id'>) => api.post<unknown>(`/v1/trash/${item.type}/${encodeURIComponent(item.id)}/restore`);

const FAILED: Record<TrashItem['type'], () => string> = {
  dataset: () => Messages.unableRestoreDataset,
  model: () => Messages.unableRestoreModel,
  project: () => tTrash('restoreProjectFailed'),
  datasetVersion: () => tTrash('restoreVersionFailed'),
};

/** Spec §8 messages, with the server's reason when the user can act on it (restore the project first). */
export function restoreErrorMessage(item: Pick<TrashItem, 'type'>, error: unknown): string {
  const base = FAILED[item.type]();
  return isApiError(error) && error.status > 0 && error.status < 500 ? `${base}: ${error.message}` : base;
}

export function useRestoreTrashItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: TrashItem) => restoreTrashItem(item),
    onSuccess: async (_, item) => {
      // A restored project brings back the models that went with it: the whole trash refetches.
      queryClient.setQueryData<TrashItem[]>(trashKeys.all, (list) => list?.filter((i) => !(i.id === item.id && i.type === item.type)));
      notifications.success(tTrash('restored', { name: item.name }));
      await refreshAfter(queryClient, item.type);
    },
    onError: (error, item) => notifications.error(restoreErrorMessage(item, error)),
  });
}
