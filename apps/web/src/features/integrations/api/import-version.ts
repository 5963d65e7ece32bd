import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoboflowImport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys, projectPath } from './keys';

export const importVersion = (ws: string, project: string, version: number) =>
  api.post<RoboflowImport>(`${projectPath(ws, project)}/versions/${version}/import`);

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useImportVersion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof importVersion>) => importVersion(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
