import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { webhookKeys } from './keys';

export const redeliver = (webhookId: string, deliveryId: string) =>
  api.post<WebhookDelivery>(`/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);

export function useRedeliver() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: { webhookId: string; deliveryId: string }) => redeliver(args.webhookId, args.deliveryId),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
