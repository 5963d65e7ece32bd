import { useInfiniteQuery } from '@tanstack/react-query';
import type { WebhookDeliveriesPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

/** A keyset page of a webhook's deliveries, newest first (ADR 0042); `cursor` is the previous page's `nextCursor`. */
export const getDeliveries = (id: string, cursor: string | null, signal?: AbortSignal) =>
  api.get<WebhookDeliveriesPage>(`/v1/webhooks/${encodeURIComponent(id)}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, signal);
/** Refreshed every 5 s while shown (the pages loaded): retries land on their own schedule. Older ones on "Load more". */
export const useDeliveries = (id: string) =>
  useInfiniteQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ pageParam, signal }) => getDeliveries(id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 5000,
  });
