import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** Admin: the accounts to pick from (same endpoint and cache key as the admin page's users table). */
export const getBillingUsers = (signal?: AbortSignal) => api.get<User[]>('/v1/admin/users', signal);

export const billingUsersQueryOptions = () => queryOptions({ queryKey: ['admin', 'users'], queryFn: ({ signal }) => getBillingUsers(signal) });

export const useBillingUsers = () => useQuery(billingUsersQueryOptions());
