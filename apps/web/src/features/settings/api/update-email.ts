import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { updateEmailBody, User } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

export type UpdateEmailInput = z.input<typeof updateEmailBody>;

/** Re-authenticates with the password and changes the email. */
export const updateEmail = (input: UpdateEmailInput) => api.post<User>('/v1/users/me/email', input);

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateEmail, onSuccess: (user) => queryClient.setQueryData(meQueryKey, user) });
}
