import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoboflowImport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys, projectPath } from './keys';

export const syncProject = (ws: string, project: string) => api.post<{ started: RoboflowImport[]; upToDate: boolean }>(`${projectPath(ws, project)}/sync`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useSyncProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof syncProject>) => syncProject(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
