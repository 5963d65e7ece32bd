import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminJob } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export type JobFilter = 'all' | 'active' | 'failed';
export const getJobs = (status: JobFilter, signal?: AbortSignal) => api.get<AdminJob[]>(`/v1/admin/jobs?status=${status}`, signal);

/** Queued, running and failed jobs of every kind, refreshed every 5 s while shown. */
export const useJobs = (status: JobFilter) =>
  useQuery({ queryKey: adminKeys.jobs(status), queryFn: ({ signal }) => getJobs(status, signal), refetchInterval: 5000 });

export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ job, action }: { job: AdminJob; action: 'retry' | 'cancel' }) =>
      api.post<AdminJob>(`/v1/admin/jobs/${job.source}/${encodeURIComponent(job.id)}/${action}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'jobs'] }),
  });
}
