import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { modelKeys, trashKeys } from '../../../lib/query-keys';
import { dropModel, refreshModelContainers } from './model-cache';
import { restoreModelAndRefresh } from './restore-model';
import { tModels } from '../i18n';

/** Soft delete: the model goes to the trash for 30 days. */
export const deleteModel = (id: string) => api.delete<unknown>(`/v1/models/${encodeURIComponent(id)}`);

export function useDeleteModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (model: Pick<Model, 'id' | 'meta' | 'project'>) => deleteModel(model.id),
    onSuccess: (_, model) => {
      dropModel(queryClient, model.id, model.project.id);
      queryClient.setQueryData<Model>(modelKeys.detail(model.id), (m) => (m ? { ...m, dates: { ...m.dates, deleted: new Date().toISOString() } } : m));
      void refreshModelContainers(queryClient, model.project.id);
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      notifications.success(tModels('deleted', { name: model.meta.name }), {
        callback: { text: tModels('undo'), func: () => restoreModelAndRefresh(queryClient, model.id) },
      });
    },
    onError: () => notifications.error(Messages.unableDeleteModel),
  });
}
