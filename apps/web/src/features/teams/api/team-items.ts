import type { TeamItemKind } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { modelKeys, projectKeys } from '../../../lib/query-keys';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

export interface TeamItemInput {
  teamId: string;
  kind: TeamItemKind;
  id: string;
}

/** Shares one of the caller's items with the team (a project brings its models). */
export const addTeamItem = ({ teamId, kind, id }: TeamItemInput) => api.post<unknown>(`/v1/teams/${encodeURIComponent(teamId)}/items`, { kind, id });
/** Takes an item out of the team (its owner or a team admin); a project takes its models along. */
export const removeTeamItem = ({ teamId, kind, id }: TeamItemInput) =>
  api.delete<unknown>(`/v1/teams/${encodeURIComponent(teamId)}/items/${kind}/${encodeURIComponent(id)}`);

const touched = (i: TeamItemInput) => [teamKeys.items(i.teamId), projectKeys.all, modelKeys.all];
export const useAddTeamItem = () => useTeamMutation(addTeamItem, { success: () => tTeams('messages.shared'), invalidate: touched });
export const useRemoveTeamItem = () => useTeamMutation(removeTeamItem, { success: () => tTeams('messages.unshared'), invalidate: touched });
