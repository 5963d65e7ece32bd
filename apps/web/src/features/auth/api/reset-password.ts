import { useMutation } from '@tanstack/react-query';
import type { passwordResetBody, Ok } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type ResetPasswordInput = z.input<typeof passwordResetBody>;

export const resetPassword = (input: ResetPasswordInput) => api.post<Ok>('/v1/auth/password/reset', input);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword, networkMode: 'always' });
