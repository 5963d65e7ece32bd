import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

/** Starts account deletion; the session ends. */
export const deleteAccount = (password: string) => api.delete<Ok>('/v1/users/me', { password });

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => queryClient.setQueryData(meQueryKey, null) });
}
