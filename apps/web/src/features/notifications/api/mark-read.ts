import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationCount } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';

/** POST /v1/notifications/read-all: opening the page marks what it shows as read. */
export const markAllRead = () => api.post<NotificationCount>('/v1/notifications/read-all');

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllRead,
    onSuccess: (count) => queryClient.setQueryData(notificationKeys.count, count),
  });
}
