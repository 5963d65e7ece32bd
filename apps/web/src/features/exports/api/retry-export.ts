import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModelExport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { exportKeys } from './export-keys';

export const retryExport = (modelId: string, exportId: string) =>
  api.post<ModelExport>(`/v1/models/${encodeURIComponent(modelId)}/exports/${encodeURIComponent(exportId)}/retry`);

export function useRetryExport(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (exportId: string) => retryExport(modelId, exportId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportKeys.list(modelId) }),
  });
}
