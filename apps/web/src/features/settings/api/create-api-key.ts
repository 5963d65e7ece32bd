import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createdApiKeySchema } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { apiKeysQueryOptions } from './get-api-keys';

export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** The secret comes back once, in both spellings (`key` ul_... and `legacyKey`). */
export const createApiKey = (name: string) => api.post<CreatedApiKey>('/v1/api-keys', { name });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}
