import type { Dataset } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDatasets, loadMoreDatasets } from '../api/get-datasets';
import { addDataset, datasetsList, datasetsPaging, isListed, removeDataset } from './datasets-list';

const ds = (id: string, extra: Partial<Dataset> = {}) =>
  ({
    id,
    task: 'detect',
    provider: 'hub',
    meta: { name: id, description: '', privacy: 'private' },
    dates: { created: '', updated: '', archived: null, deleted: null, uploaded: null, processed: null, failed: null },
    ...extra,
  }) as Dataset;

const page = (results: Dataset[], total: number, lastRecordId: string | null) => new Response(JSON.stringify({ data: { results, total, lastRecordId } }));

describe('the datasets list (spec §4)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    datasetsList.reset();
    datasetsPaging.setState({ uid: null, filters: {}, total: 0, lastRecordId: null, loading: false, loadingMore: false, error: null });
  });

  it('loads a page, appends the next one without duplicate ids, and resets when the filters change', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url.includes('last_doc_id=b')) return page([ds('b'), ds('c')], 3, null);
      if (url.includes('task=classify')) return page([ds('z', { task: 'classify' })], 1, null);
      return page([ds('a'), ds('b')], 3, 'b');
    });
    vi.stubGlobal('fetch', fetchMock);
    await loadDatasets({}, 'u1');
    expect(datasetsList.store.getState()).toMatchObject({ initialized: true });
    await loadMoreDatasets();
    expect(datasetsList.store.getState().all.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(datasetsPaging.getState()).toMatchObject({ total: 3, lastRecordId: null });

    const pending = loadDatasets({ task: 'classify' }, 'u1');
    expect(datasetsList.store.getState()).toEqual({ initialized: false, all: [] });
    await pending;
    expect(datasetsList.store.getState().all.map((d) => d.id)).toEqual(['z']);
    expect(fetchMock).toHaveBeenLastCalledWith('/v1/datasets?limit=24&task=classify', expect.anything());
  });

  it('a newer load wins over an older one that answers late', async () => {
    let release: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        url.includes('privacy=public')
          ? Promise.resolve(page([ds('p', { meta: { name: 'p', description: '', privacy: 'public' } })], 1, null))
          : new Promise<Response>((r) => (release = r)),
      ),
    );
    const slow = loadDatasets({}, 'u1');
    await loadDatasets({ privacy: 'public' }, 'u1');
    release(page([ds('old')], 1, null));
    await slow;
    expect(datasetsList.store.getState().all.map((d) => d.id)).toEqual(['p']);
  });

  it('adds new items at the front when they fit the filters, hides deleted and archived ones, counts them', () => {
    datasetsPaging.setState((s) => ({ ...s, filters: { task: 'detect' }, total: 1 }));
    datasetsList.set([ds('a')]);
    addDataset(ds('b'));
    addDataset(ds('c', { task: 'classify' }));
    addDataset(ds('d', { dates: { ...ds('d').dates, deleted: '2026-01-01T00:00:00Z' } }));
    expect(datasetsList.store.getState().all.map((d) => d.id)).toEqual(['b', 'a']);
    expect(datasetsPaging.getState().total).toBe(2);
    removeDataset('a');
    expect(datasetsPaging.getState().total).toBe(1);
    expect(isListed(ds('x', { dates: { ...ds('x').dates, archived: '2026-01-01T00:00:00Z' } }))).toBe(false);
  });

  it('an update for a dataset not in the list yet is retried every 2 s', async () => {
    vi.useFakeTimers();
    datasetsList.set([]);
    const done = datasetsList.updateWhenPresent('late', { status: 'Ready' });
    await vi.advanceTimersByTimeAsync(2000);
    datasetsList.add(ds('late', { status: 'Loading' }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(await done).toBe(true);
    expect(datasetsList.get('late')?.status).toBe('Ready');
    vi.useRealTimers();
  });
});
