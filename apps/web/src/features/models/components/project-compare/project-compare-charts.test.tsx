import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeModel } from '../../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../../test/render';
import { compareGroups, ProjectCompareCharts, seriesNames } from './project-compare-charts';

const a = makeModel({
  id: 'mCompareA0000000001',
  slug: 'run-a',
  meta: { name: 'run', description: '', privacy: 'private' },
  metrics: { epochs: 2, best: null },
});
const b = makeModel({
  id: 'mCompareB0000000001',
  slug: 'run-b',
  meta: { name: 'run', description: '', privacy: 'private' },
  metrics: { epochs: 1, best: null },
});
const fresh = makeModel({ id: 'mCompareC0000000001', meta: { name: 'untrained', description: '', privacy: 'private' } });
const row = (epoch: number, v: number) => ({
  epoch,
  'metrics/mAP50-95(B)': v,
  'metrics/mAP50(B)': v + 0.1,
  'metrics/precision(B)': v,
  'metrics/recall(B)': v,
  'val/box_loss': 1 - v,
  'train/box_loss': 1,
});

describe('project compare charts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('one chart per metric for the models that reported, and chips that hide and show a model', async () => {
    const api = fakeApi({ [`GET /v1/models/${a.id}/metrics`]: () => [row(0, 0.2), row(1, 0.4)], [`GET /v1/models/${b.id}/metrics`]: () => [row(0, 0.3)] });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/', element: <ProjectCompareCharts projectId="p1" models={[a, b, fresh]} /> }], { user: makeUser() });
    const charts = await screen.findAllByTestId('compare-chart');
    expect(charts.map((c) => c.getAttribute('data-metric'))).toEqual(['metrics/mAP50-95(B)', 'metrics/mAP50(B)', 'metrics/precision(B)', 'metrics/recall(B)']);
    expect(api.calls.map((c) => c.path)).not.toContain(`/v1/models/${fresh.id}/metrics`);
    const chips = within(screen.getByRole('group', { name: 'Models shown' })).getAllByRole('checkbox');
    expect(chips.map((c) => (c as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['run (run-a)', 'run (run-b)']);
    const first = chips[0]!;
    expect(first).toBeChecked();
    fireEvent.click(first);
    expect(first).not.toBeChecked();
  });

  it('group by dataset version: one chip and one colour per version the models trained on, a chip hides all its models', async () => {
    const on = (m: typeof a, version: number | null, id: string | null = 'dShapes00000000001') =>
      makeModel({ ...m, dataset: { ...m.dataset, id, name: id ? 'shapes' : null, version } });
    const v1a = on(a, 1);
    const v1b = on(b, 1);
    const v2 = on(
      makeModel({ id: 'mCompareD0000000001', slug: 'run-d', meta: { name: 'later', description: '', privacy: 'private' }, metrics: { epochs: 1, best: null } }),
      2,
    );
    const api = fakeApi({
      [`GET /v1/models/${a.id}/metrics`]: () => [row(0, 0.2)],
      [`GET /v1/models/${b.id}/metrics`]: () => [row(0, 0.3)],
      [`GET /v1/models/${v2.id}/metrics`]: () => [row(0, 0.5)],
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/', element: <ProjectCompareCharts projectId="p1" models={[v1a, v1b, v2]} /> }], { user: makeUser() });
    await screen.findAllByTestId('compare-chart');
    expect(within(screen.getByRole('group', { name: 'Models shown' })).getAllByRole('checkbox')).toHaveLength(3);
    fireEvent.click(screen.getByRole('radio', { name: 'Dataset version' }));
    const chips = within(screen.getByRole('group', { name: 'Dataset versions shown' })).getAllByRole('checkbox');
    expect(chips.map((c) => (c as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['shapes v1 · 2 models', 'shapes v2 · 1 model']);
    fireEvent.click(chips[0]!);
    expect(chips[0]).not.toBeChecked();
    // Back to models: both models of version 1 are hidden, the other is shown.
    fireEvent.click(screen.getByRole('radio', { name: 'Model' }));
    const models = within(screen.getByRole('group', { name: 'Models shown' })).getAllByRole('checkbox');
    expect(models.map((c) => (c as HTMLInputElement).checked)).toEqual([false, false, true]);
  });

  it('compareGroups: colours by version, unversioned runs by dataset, runs without a dataset together', () => {
    const m = (id: string, dataset: { id: string | null; name: string | null; version: number | null }) =>
      makeModel({ id, slug: id, meta: { name: id, description: '', privacy: 'private' }, dataset: { ...a.dataset, ...dataset } });
    const ms = [
      m('m1', { id: 'd1', name: 'cats', version: 2 }),
      m('m2', { id: 'd1', name: 'cats', version: null }),
      m('m3', { id: 'd1', name: 'cats', version: 2 }),
      m('m4', { id: null, name: null, version: null }),
      m('m5', { id: 'd2', name: 'dogs', version: 2 }),
    ];
    const g = compareGroups(ms, 'version');
    expect(g.map((x) => [x.label, x.modelIds])).toEqual([
      [{ kind: 'version', dataset: 'cats', version: 2 }, ['m1', 'm3']],
      [{ kind: 'noVersion', dataset: 'cats' }, ['m2']],
      [{ kind: 'noDataset' }, ['m4']],
      [{ kind: 'version', dataset: 'dogs', version: 2 }, ['m5']],
    ]);
    expect(new Set(g.map((x) => x.color)).size).toBe(4);
    expect(compareGroups(ms, 'model').map((x) => x.modelIds)).toEqual([['m1'], ['m2'], ['m3'], ['m4'], ['m5']]);
  });

  it('nothing to compare before any model reports', () => {
    renderRoutes([{ path: '/', element: <ProjectCompareCharts projectId="p1" models={[fresh]} /> }], { user: makeUser() });
    expect(screen.getByTestId('compare-empty')).toHaveTextContent('No model of this project has reported metrics yet.');
  });

  it('legend names stay unique', () => {
    expect([...seriesNames([a, b, fresh]).values()]).toEqual(['run (run-a)', 'run (run-b)', 'untrained']);
  });
});
