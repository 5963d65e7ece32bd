import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RemoteConfig, updateFlagsBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { configQueryOptions } from '../../../lib/remote-config';

export type UpdateFlagsInput = z.input<typeof updateFlagsBody>;

export const updateFlags = (input: UpdateFlagsInput) => api.patch<RemoteConfig>('/v1/config/flags', input);

export function useUpdateFlags() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateFlags, onSuccess: (config) => queryClient.setQueryData(configQueryOptions().queryKey, config) });
}
