import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { topics, type Dataset } from '@sightline/contracts';
import { realtime } from '../../../lib/realtime';
import { datasetQueryKey } from '../api/get-dataset';

export const IN_FLIGHT = ['Initiating', 'Uploading', 'Loading', 'Retrying'];

/**
 * A dataset page while the dataset is on its way (uploading, loading, retrying): `dataset:<id>`
 * progress goes into the cached dataset, and an update refetches it (with its images and report).
 */
export function useDatasetRealtime(dataset: Pick<Dataset, 'id' | 'status'> | undefined): void {
  const queryClient = useQueryClient();
  const id = dataset?.id;
  const inFlight = !!dataset && IN_FLIGHT.includes(dataset.status);
  useEffect(() => {
    if (!id || !inFlight) return;
    return realtime.subscribe(topics.dataset(id), (message) => {
      if (message.event === 'dataset.progress') {
        const p = message.data;
        if (!p) return;
        queryClient.setQueryData<Dataset>(datasetQueryKey(id), (prev) =>
          prev ? { ...prev, progress: { phase: p.phase, done: p.done, total: p.total } } : prev,
        );
      } else if (message.event === 'dataset.updated') {
        void queryClient.invalidateQueries({ queryKey: datasetQueryKey(id) });
      }
    });
  }, [id, inFlight, queryClient]);
}
