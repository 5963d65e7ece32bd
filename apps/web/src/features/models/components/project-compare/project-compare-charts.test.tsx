import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeModel } from '../../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../../test/render';
import { ProjectCompareCharts, seriesNames } from './project-compare-charts';

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

  it('nothing to compare before any model reports', () => {
    renderRoutes([{ path: '/', element: <ProjectCompareCharts projectId="p1" models={[fresh]} /> }], { user: makeUser() });
    expect(screen.getByTestId('compare-empty')).toHaveTextContent('No model of this project has reported metrics yet.');
  });

  it('legend names stay unique', () => {
    expect([...seriesNames([a, b, fresh]).values()]).toEqual(['run (run-a)', 'run (run-b)', 'untrained']);
  });
});
