import type { Team } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';
import { uploadTeamImage } from './upload-team-image';

export interface UpdateTeamInput {
  id: string;
  /** only what changed */
  meta: { name?: string; description?: string };
  image?: File | null;
}

export async function updateTeam({ id, meta, image }: UpdateTeamInput): Promise<Team> {
  const team = Object.keys(meta).length ? await api.patch<Team>(`/v1/teams/${encodeURIComponent(id)}`, { meta }) : null;
  return image ? uploadTeamImage(id, image) : team!;
}

export const useUpdateTeam = () => useTeamMutation(updateTeam, { success: () => tTeams('messages.updated'), invalidate: (i) => [teamKeys.detail(i.id)] });
