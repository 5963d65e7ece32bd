import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { signUpBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';
import type { AuthResult } from './sign-in';

export type SignUpInput = z.input<typeof signUpBody>;

export const signUp = (input: SignUpInput) => api.post<AuthResult>('/v1/auth/signup', input);

/** When no verification is required the server signs the user in; otherwise there is no session yet. */
export function useSignUp(options: { onSignedIn?: (result: AuthResult) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline, the request fails at once with the network alert of spec §8 instead of waiting silently for the connection.
    networkMode: 'always',
    mutationFn: signUp,
    onSuccess: (result) => {
      if (!result.verificationRequired) {
        options.onSignedIn?.(result);
        queryClient.setQueryData(meQueryKey, result.user);
      }
    },
  });
}
