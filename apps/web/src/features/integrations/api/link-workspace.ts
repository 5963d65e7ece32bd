import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Integration } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const linkWorkspace = (apiKey: string) => api.post<Integration>('/v1/integrations/roboflow/workspaces', { apiKey });

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useLinkWorkspace() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof linkWorkspace>) => linkWorkspace(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
