import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { jobLogSchema } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { exportKeys } from './export-keys';

export type JobLog = z.infer<typeof jobLogSchema>;

/** The console of the agent job that ran an export (`yolo export` output). */
export const getExportLog = (jobId: string, signal?: AbortSignal) => api.get<JobLog>(`/v1/agent-jobs/${encodeURIComponent(jobId)}/log`, signal);

export const exportLogQueryOptions = (jobId: string) => queryOptions({ queryKey: exportKeys.log(jobId), queryFn: ({ signal }) => getExportLog(jobId, signal) });

export const useExportLog = (jobId: string | null, live: boolean) =>
  useQuery({ ...exportLogQueryOptions(jobId ?? ''), enabled: Boolean(jobId), refetchInterval: live ? 2000 : false });
