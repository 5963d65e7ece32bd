import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getAdminDeliveries = (signal?: AbortSignal) => api.get<WebhookDelivery[]>('/v1/admin/webhooks/deliveries', signal);
export const adminDeliveriesQueryOptions = () =>
  queryOptions({ queryKey: webhookKeys.adminDeliveries(), queryFn: ({ signal }) => getAdminDeliveries(signal), refetchInterval: 10_000 });
export const useAdminDeliveries = () => useQuery(adminDeliveriesQueryOptions());
