import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CloudRun } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** Stop: the agent signals yolo; billing stops at the epochs finished now. */
export const stopCloudRun = (modelId: string) => api.post<CloudRun>(`/v1/models/${encodeURIComponent(modelId)}/cloud/stop`);

export function useStopCloudRun(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => stopCloudRun(modelId), onSuccess: (run) => queryClient.setQueryData(agentKeys.cloudRun(modelId), run) });
}
