import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Integration } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const replaceKey = (id: string, apiKey: string) => api.put<Integration>(`/v1/integrations/${encodeURIComponent(id)}/key`, { apiKey });

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useReplaceKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof replaceKey>) => replaceKey(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
