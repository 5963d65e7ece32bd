import { useInfiniteQuery } from '@tanstack/react-query';
import type { Outbox } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { queryString } from './admin-keys';

export type { OutboxMail } from '@sightline/contracts';

/** One page of the outbox, newest first; `cursor` is the previous page's `nextCursor` (ADR 0042). */
export const getOutbox = (cursor: string | undefined, signal?: AbortSignal) => api.get<Outbox>(`/v1/admin/outbox${queryString({ cursor, limit: 50 })}`, signal);

export const useOutbox = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: ['admin', 'outbox'],
    queryFn: ({ pageParam, signal }) => getOutbox(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
