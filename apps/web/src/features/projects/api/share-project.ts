import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Model, Privacy, Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import i18n from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { modelKeys, projectKeys } from '../../../lib/query-keys';
import { storeProject } from './project-cache';
import { tProjects } from '../i18n';

export const shareProject = ({ id, privacy }: { id: string; privacy: Privacy }) =>
  api.post<Project>(`/v1/projects/${encodeURIComponent(id)}/share`, { privacy });

/** A project's privacy propagates to its models (spec §4): the cached models follow at once. */
export function useShareProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareProject,
    onSuccess: (project) => {
      storeProject(queryClient, project);
      const privacy = project.meta.privacy;
      const follow = (m: Model) => (m.project.id === project.id ? { ...m, meta: { ...m.meta, privacy } } : m);
      const models = queryClient.getQueryData<Model[]>(projectKeys.models(project.id)) ?? [];
      queryClient.setQueryData<Model[]>(projectKeys.models(project.id), (list) => list?.map(follow));
      queryClient.setQueryData<Model[]>(modelKeys.all, (list) => list?.map(follow));
      for (const m of models) queryClient.setQueryData<Model>(modelKeys.detail(m.id), (d) => (d ? follow(d) : d));
      // Models not in the cache yet pick the change up on their next fetch.
      void queryClient.invalidateQueries({ queryKey: modelKeys.all });
      notifications.success(tProjects('messages.shared', { privacy: i18n.t(`common:privacy.${privacy}`) }));
    },
    onError: () => notifications.error(tProjects('messages.shareFailed')),
  });
}
