import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, CreateWebhookBody } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

/** The answer carries the signing secret: the only time it is shown. */
export const createWebhook = (body: CreateWebhookBody) => api.post<CreatedWebhook>('/v1/webhooks', body);

export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createWebhook, onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }) });
}
