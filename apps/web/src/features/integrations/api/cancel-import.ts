import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoboflowImport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const cancelImport = (id: string) => api.post<RoboflowImport>(`/v1/integrations/roboflow/imports/${encodeURIComponent(id)}/cancel`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useCancelImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof cancelImport>) => cancelImport(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
