import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWebhookBody, Webhook } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const updateWebhook = (id: string, body: UpdateWebhookBody) => api.patch<Webhook>(`/v1/webhooks/${encodeURIComponent(id)}`, body);

export function useUpdateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: { id: string; body: UpdateWebhookBody }) => updateWebhook(args.id, args.body),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
