import type { QueryClient } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { projectKeys } from '../../../lib/query-keys';

/** Puts a fresh copy of a project into its page and the list (a new one goes to the front). */
export function storeProject(queryClient: QueryClient, project: Project): void {
  queryClient.setQueryData<Project>(projectKeys.detail(project.id), project);
  queryClient.setQueryData<Project[]>(projectKeys.all, (list) => {
    if (!list) return list;
    return list.some((p) => p.id === project.id) ? list.map((p) => (p.id === project.id ? project : p)) : [project, ...list];
  });
}
