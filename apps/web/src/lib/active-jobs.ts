/** GET /v1/active-jobs, read by the jobs page and by the dataset upload panel (one query, one cache entry). */
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';

/** An upload as the server knows it: its offset grows as chunks arrive, also from other tabs or before a reload. */
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
