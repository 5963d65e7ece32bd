import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { authResultSchema, signInBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

export type SignInInput = z.input<typeof signInBody>;
export type AuthResult = z.infer<typeof authResultSchema>;

export const signIn = (input: SignInInput) => api.post<AuthResult>('/v1/auth/signin', input);

/** On success the session cookie is set; the guest guard then moves on to the saved path. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline, the request fails at once with the network alert of spec §8 instead of waiting silently for the connection.
    networkMode: 'always',
    mutationFn: signIn,
    onSuccess: (result) => queryClient.setQueryData(meQueryKey, result.user),
  });
}
