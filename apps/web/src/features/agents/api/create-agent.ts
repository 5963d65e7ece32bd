import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createdAgentSchema } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type CreatedAgent = z.infer<typeof createdAgentSchema>;

/** A new agent token (shown once): the shared pool (admins) or a private agent. */
export const createAgent = (input: { name: string; shared: boolean }) => api.post<CreatedAgent>('/v1/agents', input);

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAgent, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['agents'] }) });
}
