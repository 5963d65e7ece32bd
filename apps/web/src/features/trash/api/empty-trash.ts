import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrashItem, EmptyTrashResponse } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { trashKeys } from '../../../lib/query-keys';
import { refreshAfter } from './trash-cache';
import { tTrash } from '../i18n';

export const emptyTrash = () => api.delete<EmptyTrashResponse>('/v1/trash');

export function useEmptyTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: emptyTrash,
    onSuccess: async ({ removed }) => {
      queryClient.setQueryData<TrashItem[]>(trashKeys.all, []);
      notifications.success(tTrash('emptied', { count: removed }));
      await refreshAfter(queryClient, 'all');
    },
    onError: (error) => notifications.error(tTrash('emptyFailed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
