import { queryOptions } from '@tanstack/react-query';
import type { Dataset, User, Page } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';
import { datasetsList, datasetsPaging, filtersKey, type DatasetFilters } from '../stores/datasets-list';

export type { DatasetFilters };

export type DatasetPage = Page<Dataset>;

export const DATASETS_PAGE_SIZE = 24;

/** GET /v1/datasets: the caller's datasets, newest first, in pages after `lastDocId`. */
export function getDatasets(filters: DatasetFilters = {}, options: { lastDocId?: string | null; limit?: number; signal?: AbortSignal } = {}) {
  const qs = new URLSearchParams({ limit: String(options.limit ?? DATASETS_PAGE_SIZE) });
  if (options.lastDocId) qs.set('last_doc_id', options.lastDocId);
  for (const key of ['task', 'provider', 'privacy'] as const) {
    const value = filters[key];
    if (value) qs.set(key, value);
  }
  if (filters.archived === '1') qs.set('includeArchived', 'true');
  return api.get<DatasetPage>(`/v1/datasets?${qs}`, options.signal);
}

let generation = 0;

/** Loads the first page for these filters into the list store (reset first when they changed); a newer call wins. */
export async function loadDatasets(filters: DatasetFilters = {}, uid: string | null = datasetsPaging.getState().uid): Promise<Dataset[]> {
  const mine = ++generation;
  const before = datasetsPaging.getState();
  if (filtersKey(filters) !== filtersKey(before.filters) || uid !== before.uid) datasetsList.reset();
  datasetsPaging.setState((s) => ({ ...s, uid, filters, loading: true, error: null }));
  try {
    const page = await getDatasets(filters);
    if (mine !== generation) return datasetsList.store.getState().all;
    datasetsList.set(page.results);
    datasetsPaging.setState((s) => ({ ...s, total: page.total, lastRecordId: page.lastRecordId, loading: false }));
    return page.results;
  } catch (error) {
    if (mine === generation) datasetsPaging.setState((s) => ({ ...s, loading: false, error }));
    throw error;
  }
}

/** Appends the next page (older items) after the last one loaded. */
export async function loadMoreDatasets(): Promise<void> {
  const { filters, lastRecordId, loadingMore } = datasetsPaging.getState();
  if (loadingMore || !lastRecordId) return;
  const mine = generation;
  datasetsPaging.setState((s) => ({ ...s, loadingMore: true }));
  try {
    const page = await getDatasets(filters, { lastDocId: lastRecordId });
    if (mine !== generation) return;
    datasetsList.store.setState((s) => {
      const seen = new Set(s.all.map((d) => d.id));
      return { ...s, all: [...s.all, ...page.results.filter((d) => !seen.has(d.id))] };
    });
    datasetsPaging.setState((s) => ({ ...s, total: page.total, lastRecordId: page.lastRecordId, loadingMore: false }));
  } catch (error) {
    datasetsPaging.setState((s) => ({ ...s, loadingMore: false, error }));
  }
}

/** Startup (spec §4, section "dataset"): the list is initialized once; a page that already loaded it wins. */
export function ensureDatasetsLoaded(uid: string | null): Promise<Dataset[]> {
  const { initialized, all } = datasetsList.store.getState();
  const paging = datasetsPaging.getState();
  if ((initialized || paging.loading) && paging.uid === uid) return Promise.resolve(all);
  return loadDatasets(paging.uid === uid ? paging.filters : {}, uid);
}

export const datasetsQueryOptions = () =>
  queryOptions({ queryKey: ['datasets'] as const, queryFn: ({ client }) => ensureDatasetsLoaded(client.getQueryData<User | null>(meQueryKey)?.id ?? null) });
