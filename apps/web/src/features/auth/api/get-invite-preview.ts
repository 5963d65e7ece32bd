import { useQuery } from '@tanstack/react-query';
import type { TeamInvitePreview } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/teams/{id}/invite-preview?token=: whose team a signed-out invite link opens, and for which address. */
export const getInvitePreview = (invite: { team: string; token: string }, signal?: AbortSignal) =>
  api.get<TeamInvitePreview>(`/v1/teams/${encodeURIComponent(invite.team)}/invite-preview?token=${encodeURIComponent(invite.token)}`, signal);

export const useInvitePreview = (invite: { team: string; token: string } | null) =>
  useQuery({
    queryKey: ['invite-preview', invite?.team, invite?.token],
    queryFn: ({ signal }) => getInvitePreview(invite!, signal),
    enabled: Boolean(invite),
    retry: false,
    staleTime: Infinity,
  });
