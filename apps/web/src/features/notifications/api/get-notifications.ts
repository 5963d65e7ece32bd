import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotificationsPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';

const PAGE = 20;

/** GET /v1/notifications: the caller's records, newest first, a page at a time (ADR 0028). */
export const getNotifications = (cursor: string | null, signal?: AbortSignal) =>
  api.get<NotificationsPage>(`/v1/notifications?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, signal);

export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(false),
    queryFn: ({ pageParam, signal }) => getNotifications(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useNotificationRecords = () => useInfiniteQuery(notificationsQueryOptions());
