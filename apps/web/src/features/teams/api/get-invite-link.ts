import type { TeamInviteLink } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/teams/{id}/invites/{inviteId}/link: a pending invite's link, for those who may invite (Copy invite link). */
export const getInviteLink = (teamId: string, inviteId: string) =>
  api.get<TeamInviteLink>(`/v1/teams/${encodeURIComponent(teamId)}/invites/${encodeURIComponent(inviteId)}/link`);
