import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GpuType, gpuTypeBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

export type GpuTypeInput = z.input<typeof gpuTypeBody>;

/** Creates or updates a GPU type (name, nvidia-smi match, hourly rate). */
export const saveGpuType = (input: GpuTypeInput) => api.put<GpuType>('/v1/admin/gpu-types', input);

export function useSaveGpuType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGpuType,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: agentKeys.adminGpuTypes });
      void queryClient.invalidateQueries({ queryKey: agentKeys.gpuTypes });
    },
  });
}
