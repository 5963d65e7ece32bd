import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Mails a fresh verification link to the account's address (the same call as the sign-in page's). */
export const resendVerification = (email: string) => api.post<{ ok: boolean }>('/v1/auth/verify/resend', { email });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
