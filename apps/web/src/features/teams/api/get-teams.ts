import { queryOptions, useQuery } from '@tanstack/react-query';
import { getListOrEmpty } from '../../../lib/list-endpoint';

/** Minimal shape read by the shell until the teams feature brings its contract. */
export interface TeamSummary {
  id: string;
  meta?: { name?: string };
  dates?: { updated?: string | null; created?: string | null };
}

export const getTeams = (signal?: AbortSignal) => getListOrEmpty<TeamSummary>('/v1/teams', signal);

export const teamsQueryOptions = () => queryOptions({ queryKey: ['teams'] as const, queryFn: ({ signal }) => getTeams(signal) });

export const useTeams = () => useQuery(teamsQueryOptions());
