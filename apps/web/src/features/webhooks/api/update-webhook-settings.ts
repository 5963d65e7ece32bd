import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookSettings } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const updateWebhookSettings = (body: WebhookSettings) => api.put<WebhookSettings>('/v1/admin/webhooks/settings', body);

export function useUpdateWebhookSettings() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateWebhookSettings, onSuccess: (data) => qc.setQueryData(webhookKeys.settings(), data) });
}
