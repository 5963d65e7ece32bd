import { useInfiniteQuery } from '@tanstack/react-query';
import type { WebhookDeliveriesPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

/** A keyset page of every webhook's deliveries, newest first (ADR 0042). */
export const getAdminDeliveries = (cursor: string | null, signal?: AbortSignal) =>
  api.get<WebhookDeliveriesPage>(`/v1/admin/webhooks/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, signal);
export const useAdminDeliveries = () =>
  useInfiniteQuery({
    queryKey: webhookKeys.adminDeliveries(),
    queryFn: ({ pageParam, signal }) => getAdminDeliveries(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 10_000,
  });
