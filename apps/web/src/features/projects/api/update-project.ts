import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Model, Project } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { modelKeys, projectKeys } from '../../../lib/query-keys';
import { storeProject } from './project-cache';
import { uploadProjectImage } from './upload-project-image';
import { tProjects } from '../i18n';

export interface UpdateProjectInput {
  id: string;
  name: string;
  description: string;
  image?: File | null;
}

export async function updateProject({ id, name, description, image }: UpdateProjectInput): Promise<Project> {
  const project = await api.patch<Project>(`/v1/projects/${encodeURIComponent(id)}`, { meta: { name: name.trim(), description: description.trim() } });
  return image ? uploadProjectImage(id, image) : project;
}

export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (project) => {
      storeProject(queryClient, project);
      // Models show their project's name.
      const rename = (m: Model) => (m.project.id === project.id ? { ...m, project: { ...m.project, name: project.meta.name } } : m);
      queryClient.setQueryData<Model[]>(projectKeys.models(project.id), (list) => list?.map(rename));
      queryClient.setQueryData<Model[]>(modelKeys.all, (list) => list?.map(rename));
      notifications.success(tProjects('messages.updated'));
    },
    onError: (error) => notifications.error(tProjects('messages.updateFailed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
