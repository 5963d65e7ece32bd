import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Privacy, Project } from '@sightline/contracts';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { storeProject } from './project-cache';
import { uploadProjectImage } from './upload-project-image';
import { tProjects } from '../i18n';

export interface CreateProjectInput {
  name: string;
  description: string;
  privacy?: Privacy;
  image?: File | null;
}

/** Creates the project (name defaults to 'Untitled'), then stores its cover image when one was chosen. */
export async function createProject({ name, description, privacy, image }: CreateProjectInput): Promise<Project> {
  const project = await api.post<Project>('/v1/projects', { meta: { name: name.trim() || undefined, description: description.trim(), privacy } });
  if (!image) return project;
  try {
    return await uploadProjectImage(project.id, image);
  } catch (error) {
    // The project exists; only its cover failed. Say so and keep it.
    notifications.error(tProjects('messages.imageFailed', { reason: isApiError(error) ? error.message : String(error) }));
    return project;
  }
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: (project) => {
      storeProject(queryClient, project);
      notifications.success(tProjects('messages.created', { name: project.meta.name }));
    },
    onError: (error) => notifications.error(tProjects('messages.createFailed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
