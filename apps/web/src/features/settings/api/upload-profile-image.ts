import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { request } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';

export function uploadProfileImage(file: File): Promise<User> {
  const body = new FormData();
  body.append('file', file, file.name);
  return request<User>('/v1/users/me/image', { method: 'POST', body });
}

export function useUploadProfileImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadProfileImage, onSuccess: (user) => queryClient.setQueryData(meQueryKey, user) });
}
