import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamCreation } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

/** May the caller create a team, and if not why (plan or flag): the server decides. */
export const getTeamCreation = (signal?: AbortSignal) => api.get<TeamCreation>('/v1/teams/creation', signal);

export const useTeamCreation = () => useQuery(queryOptions({ queryKey: teamKeys.creation, queryFn: ({ signal }) => getTeamCreation(signal) }));
