import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const updateSettings = (uploadAllWeights: boolean) => api.patch<{ uploadAllWeights: boolean }>('/v1/integrations/settings', { uploadAllWeights });

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof updateSettings>) => updateSettings(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
