import type { InviteRole, Team, TeamInvite } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

export interface InviteInput {
  team: Pick<Team, 'id' | 'meta'>;
  email: string;
  role: InviteRole;
}

/** Spec §7: POST /api_v1/teams/{id}/invite with `{data: {email, role}, parent: {collection, id, name}}`. */
export const inviteMember = ({ team, email, role }: InviteInput) =>
  api.post<TeamInvite>(`/api_v1/teams/${encodeURIComponent(team.id)}/invite`, {
    data: { email: email.trim(), role },
    parent: { collection: 'teams', id: team.id, name: team.meta.name },
  });

export const useInviteMember = () =>
  useTeamMutation(inviteMember, { success: (i) => tTeams('messages.invited', { email: i.email.trim() }), invalidate: (i) => [teamKeys.invites(i.team.id)] });
