import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { EmptyTrashResponse, TrashPage } from '@sightline/contracts';
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
      queryClient.setQueryData<InfiniteData<TrashPage, string | null>>(
        trashKeys.all,
        (data) => data && { pages: [{ items: [], nextCursor: null, count: 0, bytes: 0 }], pageParams: [null] },
      );
      notifications.success(tTrash('emptied', { count: removed }));
      await refreshAfter(queryClient, 'all');
    },
    onError: (error) => notifications.error(tTrash('emptyFailed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
