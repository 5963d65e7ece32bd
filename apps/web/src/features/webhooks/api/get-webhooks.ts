import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getWebhooks = (signal?: AbortSignal) => api.get<Webhook[]>('/v1/webhooks', signal);
/** Refreshed every 15 s while shown: the last delivery of each endpoint changes on its own. */
export const webhooksQueryOptions = () => queryOptions({ queryKey: webhookKeys.mine(), queryFn: ({ signal }) => getWebhooks(signal), refetchInterval: 15_000 });
export const useWebhooks = () => useQuery(webhooksQueryOptions());
