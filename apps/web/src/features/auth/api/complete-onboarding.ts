import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

/** The welcome page marks the user as onboarded. */
export const completeOnboarding = () => api.patch<User>('/v1/users/me', { onboard: true });

export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: completeOnboarding, onSuccess: (user) => queryClient.setQueryData(meQueryKey, user) });
}
