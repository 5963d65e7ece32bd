import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { topics } from '@sightline/contracts';
import { realtime } from '../../../lib/realtime';
import { datasetQueryKey } from '../api/get-dataset';

/** Events on `dataset:<id>` after which the page reads the dataset, its images, versions and diffs again (ADR 0037, 0038). */
export const DATASET_REFRESH_EVENTS: ReadonlySet<string> = new Set(['dataset.edited', 'version.saved', 'version.deleted', 'dataset.restored']);

/**
 * A processed dataset's page stays current while others edit it: an edit or a saved or deleted version (another tab,
 * another team member, a training run that saved one) refetches everything cached under `['datasets', id]`.
 */
export function useDatasetEditsRealtime(id: string | undefined, processed: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!id || !processed) return;
    return realtime.subscribe(topics.dataset(id), (message) => {
      if (DATASET_REFRESH_EVENTS.has(message.event)) void queryClient.invalidateQueries({ queryKey: datasetQueryKey(id) });
    });
  }, [id, processed, queryClient]);
}
