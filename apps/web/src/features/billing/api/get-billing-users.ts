import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminUserList } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/**
 * Admin: the accounts to pick from, newest first, narrowed on the server by `q` (prefix of email,
 * username or first name): the first page of `GET /v1/admin/users` (ADR 0042), never every account.
 */
export const getBillingUsers = (q: string, signal?: AbortSignal) =>
  api.get<AdminUserList>(`/v1/admin/users?limit=50${q.trim() ? `&q=${encodeURIComponent(q.trim())}` : ''}`, signal);

export const useBillingUsers = (q: string) =>
  useQuery({
    queryKey: ['admin', 'users', 'list', 'billing', q.trim()],
    queryFn: ({ signal }) => getBillingUsers(q, signal),
    placeholderData: keepPreviousData,
  });
