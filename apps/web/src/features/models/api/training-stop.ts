import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { modelKeys } from '../../../lib/query-keys';

/** Asks the client to stop: Platform clients learn it from their next answer (`cancelled: true`). */
export const stopTraining = (modelId: string) => api.post<Ok>(`/v1/models/${encodeURIComponent(modelId)}/stop`);

export function useStopTraining(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => stopTraining(modelId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelKeys.detail(modelId), exact: true }),
  });
}
