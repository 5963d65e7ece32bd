import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const resendVerification = (email: string) => api.post<{ ok: true }>('/v1/auth/verify/resend', { email });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
