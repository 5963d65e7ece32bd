import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const requestPasswordReset = (email: string) => api.post<{ ok: true }>('/v1/auth/password/request', { email });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
