import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminUsersListKey } from './get-admin-users';

export const restoreUser = (id: string) => api.post<User>(`/v1/admin/users/${id}/restore`);

export function useRestoreUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreUser, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersListKey }) });
}
