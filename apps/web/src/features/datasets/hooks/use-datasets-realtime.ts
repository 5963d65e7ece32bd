import { useEffect } from 'react';
import { topics } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { realtime } from '../../../lib/realtime';
import { datasetQueryKey, getDataset } from '../api/get-dataset';
import { addDataset, datasetsList, datasetsPaging, isListed, matchesFilters, removeDataset } from '../stores/datasets-list';

/**
 * Keeps the list live (spec §4): `user:<uid>:datasets` says which dataset changed, the dataset is read
 * again and put at the front (created, restored), merge-updated (updated; retried every 2 s while it is
 * not in the list yet) or removed (deleted).
 */
export function useDatasetsRealtime(uid: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!uid) return;
    return realtime.subscribe(topics.userDatasets(uid), (message) => {
      const id = message.data && 'id' in message.data ? message.data.id : undefined;
      if (!id) return;
      if (message.event === 'dataset.deleted') {
        removeDataset(id);
        return;
      }
      void getDataset(id)
        .then((dataset) => {
          queryClient.setQueryData(datasetQueryKey(id), dataset);
          if (message.event === 'dataset.created' || message.event === 'dataset.restored') return addDataset(dataset);
          if (!isListed(dataset, datasetsPaging.getState().filters) || !matchesFilters(dataset, datasetsPaging.getState().filters))
            return void (datasetsList.get(id) && removeDataset(id));
          void datasetsList.updateWhenPresent(id, dataset);
        })
        .catch(() => undefined);
    });
  }, [uid, queryClient]);
}

/**
 * Progress of the listed datasets that are loading (or waiting for an upload this browser is not
 * sending): one `dataset:<id>` topic each while it lasts (progress, and a re-read on every update),
 * and a slow re-read in case an event passed before the subscription did.
 */
export function useProcessingProgress(ids: string[]) {
  const queryClient = useQueryClient();
  const key = [...ids].sort().join(',');
  useEffect(() => {
    if (!key) return;
    const reread = (id: string) =>
      void getDataset(id)
        .then((dataset) => {
          queryClient.setQueryData(datasetQueryKey(id), dataset);
          datasetsList.update(id, dataset);
        })
        .catch(() => undefined);
    const timer = setInterval(() => key.split(',').forEach(reread), 10_000);
    const offs = key.split(',').map((id) =>
      realtime.subscribe(topics.dataset(id), (message) => {
        if (message.event === 'dataset.updated') return reread(id);
        if (message.event !== 'dataset.progress' || !message.data) return;
        const p = message.data;
        datasetsList.update(id, { progress: { phase: p.phase, done: p.done, total: p.total } });
      }),
    );
    return () => {
      clearInterval(timer);
      offs.forEach((off) => off());
    };
  }, [key, queryClient]);
}
