import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

/** Spec §7: POST /api_v1/teams/{id}/leave (the team's items leave the caller's lists over realtime). */
export const leaveTeam = (team: Pick<Team, 'id' | 'meta'>) => api.post<unknown>(`/api_v1/teams/${encodeURIComponent(team.id)}/leave`);

export const useLeaveTeam = (onDone?: () => void) =>
  useTeamMutation(leaveTeam, {
    success: (t) => tTeams('messages.left', { name: t.meta.name }),
    invalidate: () => [],
    forget: (t) => [teamKeys.detail(t.id)],
    onDone,
  });
