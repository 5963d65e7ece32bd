import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

/** The caller's teams and the teams they are invited to (`invited`, shows Join). */
export const getTeams = (signal?: AbortSignal) => api.get<Team[]>('/v1/teams', signal);

export const teamsQueryOptions = () => queryOptions({ queryKey: teamKeys.all, queryFn: ({ signal }) => getTeams(signal) });

export const useTeams = () => useQuery(teamsQueryOptions());
