import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** An upload as the server knows it (possibly interrupted in another tab or before a reload). */
export interface ServerUpload {
  id: string;
  datasetId: string | null;
  filename: string;
  bytes: number;
  offset: number;
  status: string;
  error: string | null;
  created: string;
}
export interface ProcessingJob {
  datasetId: string;
  name: string;
  status: string;
  progress: { phase?: string; done?: number; total?: number } | null;
  attempts: number;
  lastError: string | null;
}
export interface ActiveJobs {
  uploads: ServerUpload[];
  processing: ProcessingJob[];
}

/** GET /v1/active-jobs: the caller's uploads and dataset processing. */
export const getActiveJobs = (signal?: AbortSignal) => api.get<ActiveJobs>('/v1/active-jobs', signal);

export const activeJobsQueryOptions = () => queryOptions({ queryKey: ['active-jobs'] as const, queryFn: ({ signal }) => getActiveJobs(signal) });

/** The newest server-side upload of one dataset. */
export const useServerUpload = (datasetId: string, enabled: boolean) =>
  useQuery({ ...activeJobsQueryOptions(), enabled, select: (jobs) => jobs.uploads.find((u) => u.datasetId === datasetId) ?? null });
