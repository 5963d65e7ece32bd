import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const removeIntegration = (id: string) => api.delete<{ ok: true }>(`/v1/integrations/${encodeURIComponent(id)}`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useRemoveIntegration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof removeIntegration>) => removeIntegration(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
