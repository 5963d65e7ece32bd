import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const deleteWebhook = (id: string) => api.delete<{ ok: true }>(`/v1/webhooks/${encodeURIComponent(id)}`);

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteWebhook, onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }) });
}
