import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { updateFeedbackBody, User } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

export type FeedbackInput = z.input<typeof updateFeedbackBody>;

export const updateFeedback = (input: FeedbackInput) => api.put<User>('/v1/users/me/feedback', input);

export function useUpdateFeedback() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateFeedback, onSuccess: (user) => queryClient.setQueryData(meQueryKey, user) });
}
