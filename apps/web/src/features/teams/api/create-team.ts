import type { Team } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';
import { uploadTeamImage } from './upload-team-image';

export interface CreateTeamInput {
  name: string;
  description: string;
  image?: File | null;
}

/** Creates the team (a blank name gets a generated one), then stores its image when one was chosen. */
export async function createTeam({ name, description, image }: CreateTeamInput): Promise<Team> {
  const team = await api.post<Team>('/v1/teams', { meta: { name: name.trim() || undefined, description: description.trim() } });
  if (!image) return team;
  try {
    return await uploadTeamImage(team.id, image);
  } catch (error) {
    notifications.error(tTeams('messages.failed', { reason: isApiError(error) ? error.message : String(error) }));
    return team;
  }
}

export const useCreateTeam = () =>
  useTeamMutation(createTeam, { success: (_, team) => tTeams('messages.created', { name: team.meta.name }), invalidate: () => [teamKeys.creation] });
