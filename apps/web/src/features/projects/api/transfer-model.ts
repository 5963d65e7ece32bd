import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { modelKeys, projectKeys } from '../../../lib/query-keys';
import { tProjects } from '../i18n';

/** Moves a model into another of the owner's projects; it takes that project's privacy. */
export const transferModel = ({ modelId, projectId }: { modelId: string; projectId: string; fromProjectId: string }) =>
  api.post<Model>(`/v1/models/${encodeURIComponent(modelId)}/transfer`, { projectId });

export function useTransferModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: transferModel,
    onSuccess: (model, { fromProjectId }) => {
      queryClient.setQueryData<Model[]>(projectKeys.models(fromProjectId), (list) => list?.filter((m) => m.id !== model.id));
      queryClient.setQueryData<Model>(modelKeys.detail(model.id), model);
      queryClient.setQueryData<Model[]>(modelKeys.all, (list) => list?.map((m) => (m.id === model.id ? model : m)));
      // Both projects' totals and dates changed.
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      notifications.success(tProjects('messages.transferred', { model: model.meta.name, project: model.project.name ?? '' }), {
        link: { text: tProjects('messages.openProject'), path: `/projects/${model.project.id}` },
      });
    },
    onError: () => notifications.error(tProjects('messages.transferFailed')),
  });
}
