import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const getUserDetail = (id: string, signal?: AbortSignal) => api.get<AdminUserDetail>(`/v1/admin/users/${encodeURIComponent(id)}`, signal);

export const useUserDetail = (id: string | null) =>
  useQuery({ queryKey: adminKeys.user(id ?? ''), queryFn: ({ signal }) => getUserDetail(id!, signal), enabled: Boolean(id) });
