import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { jobLogSchema } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** An agent job's console (owner or admin). */
export const getJobLog = (jobId: string, signal?: AbortSignal) =>
  api.get<z.infer<typeof jobLogSchema>>(`/v1/agent-jobs/${encodeURIComponent(jobId)}/log`, signal);
export const useJobLog = (jobId: string | null, live: boolean) =>
  useQuery({
    queryKey: agentKeys.log(jobId ?? ''),
    queryFn: ({ signal }) => getJobLog(jobId!, signal),
    enabled: Boolean(jobId),
    refetchInterval: live ? 2000 : false,
  });
