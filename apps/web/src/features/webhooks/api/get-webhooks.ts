import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getWebhooks = (signal?: AbortSignal) => api.get<Webhook[]>('/v1/webhooks', signal);
export const webhooksQueryOptions = () => queryOptions({ queryKey: webhookKeys.mine(), queryFn: ({ signal }) => getWebhooks(signal) });
export const useWebhooks = () => useQuery(webhooksQueryOptions());
