import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

export type RemoveInput = { teamId: string; member: string } | { teamId: string; invite: string };

/** Spec §7: POST /api_v1/teams/{id}/remove with `{member}` (a uid) or `{invite}` (an invite id). */
export const removeFromTeam = (input: RemoveInput) =>
  api.post<unknown>(`/api_v1/teams/${encodeURIComponent(input.teamId)}/remove`, 'member' in input ? { member: input.member } : { invite: input.invite });

export const useRemoveFromTeam = () =>
  useTeamMutation(removeFromTeam, {
    success: (i) => tTeams('member' in i ? 'messages.removed' : 'messages.cancelled'),
    invalidate: (i) => [teamKeys.detail(i.teamId), teamKeys.members(i.teamId), teamKeys.invites(i.teamId)],
  });
