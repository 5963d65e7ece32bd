import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { modelKeys, notificationKeys, projectKeys } from '../../../lib/query-keys';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

/** Spec §7: POST /api_v1/teams/{id}/invite/accept (with the mail link's token when there is one). */
export const acceptInvite = ({ id, token }: { id: string; token?: string | null }) =>
  api.post<Team>(`/api_v1/teams/${encodeURIComponent(id)}/invite/accept`, token ? { token } : {});

export const useAcceptInvite = () =>
  useTeamMutation(acceptInvite, {
    success: (_, team) => tTeams('messages.joined', { name: team.meta.name }),
    invalidate: (i) => [teamKeys.detail(i.id), notificationKeys.all, teamKeys.members(i.id), projectKeys.all, modelKeys.all],
  });
