import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminUserSort, AdminUsersPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './admin-keys';

export interface UserSearch {
  q: string;
  sort: AdminUserSort;
  dir: 'asc' | 'desc';
}

export const searchUsers = (s: UserSearch, cursor: string | undefined, signal?: AbortSignal) =>
  api.get<AdminUsersPage>(`/v1/admin/users/search${queryString({ q: s.q.trim(), sort: s.sort, dir: s.dir, cursor, limit: 25 })}`, signal);

/** Keyset pages of the user search ("Load more" appends the next page). */
export const useSearchUsers = (s: UserSearch) =>
  useInfiniteQuery({
    queryKey: adminKeys.search(s),
    queryFn: ({ pageParam, signal }) => searchUsers(s, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
  });
