import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgentJobSummary } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

export const cancelAgentJob = (id: string) => api.post<AgentJobSummary>(`/v1/agent-jobs/${encodeURIComponent(id)}/cancel`);

export function useCancelAgentJob() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelAgentJob, onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.adminJobs }) });
}
