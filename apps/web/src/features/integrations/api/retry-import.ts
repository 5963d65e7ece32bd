import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoboflowImport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const retryImport = (id: string) => api.post<RoboflowImport>(`/v1/integrations/roboflow/imports/${encodeURIComponent(id)}/retry`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useRetryImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof retryImport>) => retryImport(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
