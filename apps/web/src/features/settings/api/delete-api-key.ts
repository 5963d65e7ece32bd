import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { apiKeysQueryOptions } from './get-api-keys';

export const deleteApiKey = (id: string) => api.delete<Ok>(`/v1/api-keys/${encodeURIComponent(id)}`);

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  const key = apiKeysQueryOptions().queryKey;
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: (_, id) => {
      queryClient.setQueryData<ApiKey[]>(key, (keys) => keys?.filter((k) => k.id !== id));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
