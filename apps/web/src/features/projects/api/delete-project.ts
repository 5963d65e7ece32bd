import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Model, Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { modelKeys, projectKeys, trashKeys } from '../../../lib/query-keys';
import { restoreProjectAndRefresh } from './restore-project';
import { tProjects } from '../i18n';

/** Soft delete: the project and its models go to the trash together. */
export const deleteProject = (id: string) => api.delete<unknown>(`/v1/projects/${encodeURIComponent(id)}`);

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: Pick<Project, 'id' | 'meta'>) => deleteProject(project.id),
    onSuccess: (_, project) => {
      const deleted = new Date().toISOString();
      queryClient.setQueryData<Project[]>(projectKeys.all, (list) => list?.filter((p) => p.id !== project.id));
      queryClient.setQueryData<Project>(projectKeys.detail(project.id), (p) => (p ? { ...p, dates: { ...p.dates, deleted } } : p));
      // Spec §4: deleting a project also removes its models locally.
      const gone = (queryClient.getQueryData<Model[]>(projectKeys.models(project.id)) ?? []).map((m) => m.id);
      queryClient.setQueryData<Model[]>(modelKeys.all, (list) => list?.filter((m) => m.project.id !== project.id));
      queryClient.setQueryData<Model[]>(projectKeys.models(project.id), []);
      for (const id of gone)
        queryClient.setQueryData<Model>(modelKeys.detail(id), (m) => (m && !m.dates.deleted ? { ...m, dates: { ...m.dates, deleted } } : m));
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      notifications.success(tProjects('messages.deleted', { name: project.meta.name }), {
        callback: { text: tProjects('messages.undo'), func: () => restoreProjectAndRefresh(queryClient, project.id) },
      });
    },
    onError: () => notifications.error(tProjects('messages.deleteFailed')),
  });
}
