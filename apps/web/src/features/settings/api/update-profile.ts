import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { updateProfileBody, User } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

export type UpdateProfileInput = z.input<typeof updateProfileBody>;

export const updateProfile = (input: UpdateProfileInput) => api.patch<User>('/v1/users/me', input);

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (user) => queryClient.setQueryData(meQueryKey, user) });
}
