import type { QueryClient } from '@tanstack/react-query';
import type { TrashItem } from '@sightline/contracts';
import { datasetKeys, modelKeys, projectKeys, trashKeys } from '../../../lib/query-keys';

/** After a restore or a purge: the trash and the lists the item belongs to refetch. */
export function refreshAfter(queryClient: QueryClient, type: TrashItem['type'] | 'all'): Promise<unknown> {
  const lists = {
    dataset: [datasetKeys.all],
    datasetVersion: [datasetKeys.all],
    project: [projectKeys.all, modelKeys.all],
    model: [modelKeys.all, projectKeys.all],
    all: [datasetKeys.all, projectKeys.all, modelKeys.all],
  }[type];
  return Promise.all([trashKeys.all, ...lists].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
