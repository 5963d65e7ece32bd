import type { Dataset } from '@sightline/contracts';
import { createStore, useStore } from '../../../lib/create-store';
import { createListStore, useList } from '../../../lib/list-store';

/**
 * The client dataset list of spec §3/§4: the generic list store (new items at the front, batches
 * without duplicate ids, merge-update by id with a log line when missing, the 2 s retry of a missing
 * update, reset), plus the paging of the server list and the filters it was loaded with.
 * Loading lives with its endpoint (api/get-datasets.ts).
 */
export const datasetsList = createListStore<Dataset>('datasets');

export interface DatasetFilters {
  task?: string;
  provider?: string;
  privacy?: string;
  /** '1': archived datasets are listed too (the "Show archived" filter). */
  archived?: string;
}

export interface DatasetsPaging {
  /** Whose list this is: another account signing in starts from scratch. */
  uid: string | null;
  filters: DatasetFilters;
  total: number;
  lastRecordId: string | null;
  loading: boolean;
  loadingMore: boolean;
  error: unknown;
}

export const datasetsPaging = createStore<DatasetsPaging>({
  uid: null,
  filters: {},
  total: 0,
  lastRecordId: null,
  loading: false,
  loadingMore: false,
  error: null,
});

export const filtersKey = (f: DatasetFilters) => JSON.stringify([f.task ?? '', f.provider ?? '', f.privacy ?? '', f.archived ?? '']);

/** Lists hide deleted and archived items (spec §4); archived ones show under the "Show archived" filter. */
export const isListed = (d: Dataset, f: DatasetFilters = {}) => !d.dates.deleted && (!d.dates.archived || f.archived === '1');

export const matchesFilters = (d: Dataset, f: DatasetFilters) =>
  (!f.task || d.task === f.task) && (!f.provider || d.provider === f.provider) && (!f.privacy || d.meta.privacy === f.privacy);

/** A dataset created or restored here or elsewhere: at the front when it fits the current filters. */
export function addDataset(d: Dataset): void {
  const filters = datasetsPaging.getState().filters;
  if (!isListed(d, filters) || !matchesFilters(d, filters)) return;
  const known = !!datasetsList.get(d.id);
  datasetsList.add(d);
  if (!known) datasetsPaging.setState((s) => ({ ...s, total: s.total + 1 }));
}

export function removeDataset(id: string): void {
  if (datasetsList.remove(id)) datasetsPaging.setState((s) => ({ ...s, total: Math.max(0, s.total - 1) }));
}

export const useDatasetsList = () => useList(datasetsList);
export const useDatasetsPaging = () => useStore(datasetsPaging);
