import type { TeamMemberRole } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

/** Changes a member's role; `owner` transfers ownership (the previous owner stays as admin). */
export const updateMemberRole = ({ teamId, uid, role }: { teamId: string; uid: string; role: TeamMemberRole }) =>
  api.patch<unknown>(`/v1/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(uid)}`, { role });

export const useUpdateMemberRole = () =>
  useTeamMutation(updateMemberRole, {
    success: (i) => tTeams(i.role === 'owner' ? 'messages.transferred' : 'messages.roleChanged'),
    invalidate: (i) => [teamKeys.detail(i.teamId), teamKeys.members(i.teamId)],
  });
