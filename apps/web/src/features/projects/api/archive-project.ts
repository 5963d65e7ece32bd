import type { QueryClient } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/query-keys';
import { PROJECTS_WITH_ARCHIVED } from './get-projects';
import { storeProject } from './project-cache';

/** POST /v1/projects/{id}/archive or /unarchive (spec §4 dates.archived), then the page and the lists refresh. */
export async function setProjectArchived(queryClient: QueryClient, id: string, archived: boolean): Promise<Project> {
  const project = await api.post<Project>(`/v1/projects/${encodeURIComponent(id)}/${archived ? 'archive' : 'unarchive'}`);
  storeProject(queryClient, project);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true }),
    queryClient.invalidateQueries({ queryKey: PROJECTS_WITH_ARCHIVED }),
  ]);
  return project;
}
