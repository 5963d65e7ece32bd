import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Agent } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** Agents: an admin's `all`, or the caller's private ones. */
export const getAgents = (scope: 'all' | 'mine', signal?: AbortSignal) => api.get<Agent[]>(`/v1/agents?scope=${scope}`, signal);
export const agentsQueryOptions = (scope: 'all' | 'mine') =>
  queryOptions({ queryKey: agentKeys.agents(scope), queryFn: ({ signal }) => getAgents(scope, signal) });
export const useAgents = (scope: 'all' | 'mine') => useQuery({ ...agentsQueryOptions(scope), refetchInterval: 5000 });
