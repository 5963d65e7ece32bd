import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

/** Spec §7: DELETE /api_v1/teams/{id} (owner only). */
export const deleteTeam = (team: Pick<Team, 'id' | 'meta'>) => api.delete<unknown>(`/api_v1/teams/${encodeURIComponent(team.id)}`);

export const useDeleteTeam = (onDone?: () => void) =>
  useTeamMutation(deleteTeam, {
    success: (t) => tTeams('messages.deleted', { name: t.meta.name }),
    invalidate: () => [],
    forget: (t) => [teamKeys.detail(t.id)],
    onDone,
  });
