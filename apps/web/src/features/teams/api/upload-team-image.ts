import type { Team } from '@sightline/contracts';
import { request } from '../../../lib/api-client';

/** Team image (image types only, up to 5 MB), stored at users/{uid}/teams/{id}. */
export function uploadTeamImage(id: string, file: File): Promise<Team> {
  const body = new FormData();
  body.append('file', file, file.name);
  return request<Team>(`/v1/teams/${encodeURIComponent(id)}/image`, { method: 'POST', body });
}
