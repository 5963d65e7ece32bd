import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminUserList } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { queryString } from './admin-keys';

/** One page of every account, newest first; `cursor` is the previous page's `nextCursor` (ADR 0042). */
export const getAdminUsers = (q: string, cursor: string | undefined, limit: number, signal?: AbortSignal) =>
  api.get<AdminUserList>(`/v1/admin/users${queryString({ q: q.trim(), cursor, limit })}`, signal);

/** Query key of the account list; restoring an account refreshes every list under it. */
export const adminUsersListKey = ['admin', 'users', 'list'] as const;

/** Keyset pages of the accounts ("Load more" appends the next page); `q` narrows them on the server. */
export const useAdminUsers = (enabled: boolean, q = '', limit = 50) =>
  useInfiniteQuery({
    queryKey: [...adminUsersListKey, q.trim(), limit],
    queryFn: ({ pageParam, signal }) => getAdminUsers(q, pageParam, limit, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
