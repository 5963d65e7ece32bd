import { useMutation } from '@tanstack/react-query';
import type { Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const resendVerification = (email: string) => api.post<Ok>('/v1/auth/verify/resend', { email });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification, networkMode: 'always' });
