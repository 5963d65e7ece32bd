import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamInvite } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

/** Pending invites to the caller's address, across teams (shown on /notifications). */
export const getMyInvites = (signal?: AbortSignal) => api.get<TeamInvite[]>('/v1/teams/invites', signal);

export const useMyInvites = () => useQuery(queryOptions({ queryKey: teamKeys.myInvites, queryFn: ({ signal }) => getMyInvites(signal) }));
