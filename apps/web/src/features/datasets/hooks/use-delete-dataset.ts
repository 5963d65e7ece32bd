import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Messages, type Dataset } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { deleteDataset } from '../api/delete-dataset';
import { datasetQueryKey } from '../api/get-dataset';
import { restoreDataset } from '../api/restore-dataset';
import { useDatasetsT } from '../i18n';
import { addDataset, removeDataset } from '../stores/datasets-list';

/**
 * Delete → trash with an Undo action in the notification → restore (spec §4). Failures use the
 * spec's messages (§8): the dataset delete failure reads 'Unable to delete project' there.
 */
export function useDeleteDataset() {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();

  const restore = useCallback(
    async (dataset: Pick<Dataset, 'id' | 'meta'>) => {
      try {
        const restored = await restoreDataset(dataset.id);
        queryClient.setQueryData(datasetQueryKey(dataset.id), restored);
        addDataset(restored);
        notifications.success(t('delete.restored', { name: dataset.meta.name }), { link: { text: t('open'), path: `/datasets/${dataset.id}` } });
        return true;
      } catch {
        notifications.error(Messages.unableRestoreDataset);
        return false;
      }
    },
    [queryClient, t],
  );

  const remove = useCallback(
    async (dataset: Pick<Dataset, 'id' | 'meta'>) => {
      try {
        await deleteDataset(dataset.id);
      } catch {
        notifications.error(t('delete.failed'));
        return false;
      }
      removeDataset(dataset.id);
      queryClient.setQueryData<Dataset>(datasetQueryKey(dataset.id), (prev) =>
        prev ? { ...prev, dates: { ...prev.dates, deleted: new Date().toISOString() } } : prev,
      );
      notifications.success(t('delete.done', { name: dataset.meta.name }), { callback: { text: t('delete.undo'), func: () => void restore(dataset) } });
      return true;
    },
    [queryClient, restore, t],
  );

  return { remove, restore };
}
