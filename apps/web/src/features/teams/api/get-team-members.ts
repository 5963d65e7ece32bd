import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamMember } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

export const getTeamMembers = (id: string, signal?: AbortSignal) => api.get<TeamMember[]>(`/v1/teams/${encodeURIComponent(id)}/members`, signal);

export const useTeamMembers = (id: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: teamKeys.members(id), queryFn: ({ signal }) => getTeamMembers(id, signal), enabled }));
