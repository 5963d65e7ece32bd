/** GET /v1/active-jobs, read by the jobs page and by the dataset upload panel (one query, one cache entry). */
import { queryOptions } from '@tanstack/react-query';
import type { ActiveJobs } from '@sightline/contracts';
import { api } from './api-client';

export type { ActiveJobs, ProcessingJob, ServerUpload } from '@sightline/contracts';

/** GET /v1/active-jobs: the caller's uploads and dataset processing. */
export const getActiveJobs = (signal?: AbortSignal) => api.get<ActiveJobs>('/v1/active-jobs', signal);

export const activeJobsQueryOptions = () => queryOptions({ queryKey: ['active-jobs'] as const, queryFn: ({ signal }) => getActiveJobs(signal) });
