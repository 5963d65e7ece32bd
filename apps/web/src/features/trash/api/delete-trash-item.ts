import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { TrashItem, TrashPage } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { trashKeys } from '../../../lib/query-keys';
import { withoutItem } from './get-trash';
import { refreshAfter } from './trash-cache';
import { tTrash } from '../i18n';

/** Permanent: the item, its files and (for a project) its models are removed now. */
export const deleteTrashItem = (item: Pick<TrashItem, 'type' | 'id'>) => api.delete<unknown>(`/v1/trash/${item.type}/${encodeURIComponent(item.id)}`);

export function useDeleteTrashItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: TrashItem) => deleteTrashItem(item),
    onSuccess: async (_, item) => {
      queryClient.setQueryData<InfiniteData<TrashPage, string | null>>(trashKeys.all, (data) => withoutItem(data, item));
      notifications.success(tTrash('deletedForever', { name: item.name }));
      await refreshAfter(queryClient, item.type);
    },
    onError: (error) => notifications.error(tTrash('deleteFailed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
