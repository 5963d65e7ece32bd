import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookSettings } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const getWebhookSettings = (signal?: AbortSignal) => api.get<WebhookSettings>('/v1/admin/webhooks/settings', signal);
export const webhookSettingsQueryOptions = () => queryOptions({ queryKey: webhookKeys.settings(), queryFn: ({ signal }) => getWebhookSettings(signal) });
export const useWebhookSettings = () => useQuery(webhookSettingsQueryOptions());
