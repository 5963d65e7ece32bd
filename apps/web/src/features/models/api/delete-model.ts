import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import i18n from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { modelKeys, trashKeys } from '../../../lib/query-keys';
import { dropModel, refreshModelContainers } from './model-cache';
import { restoreModelAndRefresh } from './restore-model';

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
      notifications.success(i18n.t('pages:models.deleted', { name: model.meta.name }), {
        callback: { text: i18n.t('pages:models.undo'), func: () => restoreModelAndRefresh(queryClient, model.id) },
      });
    },
    onError: () => notifications.error(Messages.unableDeleteModel),
  });
}
