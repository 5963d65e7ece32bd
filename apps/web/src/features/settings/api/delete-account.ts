import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

/** Starts account deletion; the session ends. */
export const deleteAccount = (password: string) => api.delete<{ ok: true }>('/v1/users/me', { password });

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => queryClient.setQueryData(meQueryKey, null) });
}
