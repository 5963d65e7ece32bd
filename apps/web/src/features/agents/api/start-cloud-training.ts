import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CloudRun, CloudTrainingBody } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** Holds the estimate on the wallet and queues the run for a shared GPU agent. */
export const startCloudTraining = (modelId: string, body: CloudTrainingBody) =>
  api.post<CloudRun>(`/v1/models/${encodeURIComponent(modelId)}/cloud/train`, body);

export function useStartCloudTraining(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CloudTrainingBody) => startCloudTraining(modelId, body),
    onSuccess: (run) => queryClient.setQueryData(agentKeys.cloudRun(modelId), run),
  });
}
