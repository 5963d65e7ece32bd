import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamInvite } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

/** The team's pending invites, with their expiry. */
export const getTeamInvites = (id: string, signal?: AbortSignal) => api.get<TeamInvite[]>(`/v1/teams/${encodeURIComponent(id)}/invites`, signal);

export const useTeamInvites = (id: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: teamKeys.invites(id), queryFn: ({ signal }) => getTeamInvites(id, signal), enabled }));
