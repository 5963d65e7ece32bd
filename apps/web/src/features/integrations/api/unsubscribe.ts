import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const unsubscribe = (id: string) => api.delete<{ ok: true }>(`/v1/integrations/roboflow/subscriptions/${encodeURIComponent(id)}`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useUnsubscribe() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof unsubscribe>) => unsubscribe(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
