import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { modelKeys, projectKeys, trashKeys } from '../../../lib/query-keys';
import { storeProject } from './project-cache';
import { tProjects } from '../i18n';

export const restoreProject = (id: string) => api.post<Project>(`/v1/projects/${encodeURIComponent(id)}/restore`);

/** Restores the project and the models that went to the trash with it; used by the hook and by undo. */
export async function restoreProjectAndRefresh(queryClient: QueryClient, id: string): Promise<Project | null> {
  try {
    const project = await restoreProject(id);
    storeProject(queryClient, project);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: projectKeys.all }),
      queryClient.invalidateQueries({ queryKey: modelKeys.all }),
      queryClient.invalidateQueries({ queryKey: trashKeys.all }),
    ]);
    notifications.success(tProjects('messages.restored', { name: project.meta.name }));
    return project;
  } catch (error) {
    notifications.error(tProjects('messages.restoreFailed', { reason: isApiError(error) ? error.message : String(error) }));
    return null;
  }
}

export function useRestoreProject() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: string) => restoreProjectAndRefresh(queryClient, id) });
}
