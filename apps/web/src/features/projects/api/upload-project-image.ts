import type { Project } from '@sightline/contracts';
import { request } from '../../../lib/api-client';

/** Cover image (image types only, up to 5 MB), stored at users/{uid}/projects/{id}. */
export function uploadProjectImage(id: string, file: File): Promise<Project> {
  const body = new FormData();
  body.append('file', file, file.name);
  return request<Project>(`/v1/projects/${encodeURIComponent(id)}/image`, { method: 'POST', body });
}
