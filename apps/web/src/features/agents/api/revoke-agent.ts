import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Revokes the agent's token; its running jobs are handed back at once. */
export const revokeAgent = (id: string) => api.delete<{ ok: true }>(`/v1/agents/${encodeURIComponent(id)}`);

export function useRevokeAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeAgent, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['agents'] }) });
}
