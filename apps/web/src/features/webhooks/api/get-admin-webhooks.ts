import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getAdminWebhooks = (signal?: AbortSignal) => api.get<Webhook[]>('/v1/admin/webhooks', signal);
export const adminWebhooksQueryOptions = () =>
  queryOptions({ queryKey: webhookKeys.admin(), queryFn: ({ signal }) => getAdminWebhooks(signal), refetchInterval: 15_000 });
export const useAdminWebhooks = () => useQuery(adminWebhooksQueryOptions());
