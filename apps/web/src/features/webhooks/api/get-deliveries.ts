import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getDeliveries = (id: string, signal?: AbortSignal) => api.get<WebhookDelivery[]>(`/v1/webhooks/${encodeURIComponent(id)}/deliveries`, signal);
/** Refreshed every 5 s while shown: retries land on their own schedule. */
export const deliveriesQueryOptions = (id: string) =>
  queryOptions({ queryKey: webhookKeys.deliveries(id), queryFn: ({ signal }) => getDeliveries(id, signal), refetchInterval: 5000 });
export const useDeliveries = (id: string) => useQuery(deliveriesQueryOptions(id));
