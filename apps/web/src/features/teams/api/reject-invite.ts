import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';
import { tTeams } from '../i18n';
import { useTeamMutation } from './team-mutation';

/** Spec §7: POST /api_v1/teams/{id}/invite/reject: the team disappears from the caller's list. */
export const rejectInvite = ({ id, token }: { id: string; token?: string | null }) =>
  api.post<unknown>(`/api_v1/teams/${encodeURIComponent(id)}/invite/reject`, token ? { token } : {});

export const useRejectInvite = (onDone?: () => void) =>
  useTeamMutation(rejectInvite, { success: () => tTeams('messages.rejected'), invalidate: () => [notificationKeys.all], onDone });
