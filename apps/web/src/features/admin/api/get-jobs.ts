import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminJob, AdminJobsPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './admin-keys';

export type JobFilter = 'all' | 'active' | 'failed';
/** One page of jobs, newest update first; `cursor` is the previous page's `nextCursor` (ADR 0042). */
export const getJobs = (status: JobFilter, cursor: string | undefined, signal?: AbortSignal) =>
  api.get<AdminJobsPage>(`/v1/admin/jobs${queryString({ status, cursor, limit: 50 })}`, signal);

/** Queued, running and failed jobs of every kind, the pages loaded so far refreshed every 5 s while shown. */
export const useJobs = (status: JobFilter) =>
  useInfiniteQuery({
    queryKey: adminKeys.jobs(status),
    queryFn: ({ pageParam, signal }) => getJobs(status, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 5000,
  });

export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ job, action }: { job: AdminJob; action: 'retry' | 'cancel' }) =>
      api.post<AdminJob>(`/v1/admin/jobs/${job.source}/${encodeURIComponent(job.id)}/${action}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'jobs'] }),
  });
}
