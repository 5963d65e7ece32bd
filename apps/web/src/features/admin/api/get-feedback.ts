import { useInfiniteQuery } from '@tanstack/react-query';
import type { AdminFeedback } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './admin-keys';

/** One page of feedback, newest first; the summary comes with the first page (ADR 0042). */
export const getFeedback = (cursor: string | undefined, signal?: AbortSignal) =>
  api.get<AdminFeedback>(`/v1/admin/feedback${queryString({ cursor, limit: 50 })}`, signal);
export const useFeedback = () =>
  useInfiniteQuery({
    queryKey: adminKeys.feedback,
    queryFn: ({ pageParam, signal }) => getFeedback(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
