import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const getAdminUsers = (signal?: AbortSignal) => api.get<User[]>('/v1/admin/users', signal);

export const adminUsersQueryOptions = () => queryOptions({ queryKey: ['admin', 'users'], queryFn: ({ signal }) => getAdminUsers(signal) });

export const useAdminUsers = (enabled: boolean) => useQuery({ ...adminUsersQueryOptions(), enabled });
