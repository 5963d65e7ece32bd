import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

/** One team the caller belongs to or is invited to; others answer 404 (the common error message). */
export const getTeam = (id: string, signal?: AbortSignal) => api.get<Team>(`/v1/teams/${encodeURIComponent(id)}`, signal);

export const teamQueryOptions = (id: string) => queryOptions({ queryKey: teamKeys.detail(id), queryFn: ({ signal }) => getTeam(id, signal), retry: false });

export const useTeam = (id: string) => useQuery(teamQueryOptions(id));
