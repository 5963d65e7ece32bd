import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AgentJobSummary } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** Queued, claimed and running agent jobs (admins). */
export const getAgentJobs = (signal?: AbortSignal) => api.get<AgentJobSummary[]>('/v1/admin/agent-jobs', signal);
export const agentJobsQueryOptions = () => queryOptions({ queryKey: agentKeys.adminJobs, queryFn: ({ signal }) => getAgentJobs(signal) });
export const useAgentJobs = () => useQuery({ ...agentJobsQueryOptions(), refetchInterval: 3000 });
