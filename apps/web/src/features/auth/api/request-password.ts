import { useMutation } from '@tanstack/react-query';
import type { Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const requestPasswordReset = (email: string) => api.post<Ok>('/v1/auth/password/request', { email });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset, networkMode: 'always' });
