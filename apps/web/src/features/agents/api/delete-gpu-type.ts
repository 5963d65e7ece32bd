import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

export const deleteGpuType = (id: string) => api.delete<{ ok: true }>(`/v1/admin/gpu-types/${encodeURIComponent(id)}`);

export function useDeleteGpuType() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteGpuType, onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.adminGpuTypes }) });
}
