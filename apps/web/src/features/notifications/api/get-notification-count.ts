import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationCount } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';

/** GET /v1/notifications/count: what the bell shows; realtime keeps it current (use-notifications-realtime). */
export const getNotificationCount = (signal?: AbortSignal) => api.get<NotificationCount>('/v1/notifications/count', signal);

export const notificationCountQueryOptions = () =>
  queryOptions({ queryKey: notificationKeys.count, queryFn: ({ signal }) => getNotificationCount(signal), staleTime: 60_000 });

export const useNotificationCount = () => useQuery(notificationCountQueryOptions());
