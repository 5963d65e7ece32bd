import { useMutation } from '@tanstack/react-query';
import type { updatePasswordBody, Ok } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type UpdatePasswordInput = z.input<typeof updatePasswordBody>;

export const updatePassword = (input: UpdatePasswordInput) => api.post<Ok>('/v1/users/me/password', input);

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
