import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReviewFilter, ReviewPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { IMAGE_PAGE_SIZE } from './get-image-page';

/** The editor's review filter (ADR 0039): `since` is a version number (changed-since), `evaluationId` an evaluation (disagree). */
export interface ReviewSelection {
  filter: ReviewFilter;
  since?: number;
  evaluationId?: string;
}

/** A filter the server can answer: changed-since names a version, disagree an evaluation. */
export const isComplete = (s: ReviewSelection | null): s is ReviewSelection =>
  !!s && (s.filter !== 'changed-since' || !!s.since) && (s.filter !== 'disagree' || !!s.evaluationId);

/** `GET /v1/datasets/:id/review`: one keyset page of the images a filter selects, in browse order. */
export const getReviewPage = (datasetId: string, s: ReviewSelection, cursor: string | null, signal?: AbortSignal) => {
  const q = new URLSearchParams({ filter: s.filter, limit: String(IMAGE_PAGE_SIZE) });
  if (s.since) q.set('since', String(s.since));
  if (s.evaluationId) q.set('evaluationId', s.evaluationId);
  if (cursor) q.set('cursor', cursor);
  return api.get<ReviewPage>(`/v1/datasets/${encodeURIComponent(datasetId)}/review?${q}`, signal);
};

/** The filtered list, a page of 50 at a time as the list scrolls to its end (nothing counts the whole dataset). */
export const useReviewPages = (datasetId: string, s: ReviewSelection | null) =>
  useInfiniteQuery({
    queryKey: ['datasets', datasetId, 'review', s?.filter ?? null, s?.since ?? null, s?.evaluationId ?? null] as const,
    queryFn: ({ pageParam, signal }) => getReviewPage(datasetId, s!, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: isComplete(s),
    staleTime: 60_000,
  });
