import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '@sightline/contracts';
import { fakeApi, makeModel } from '../../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../../test/render';
import { heartbeatState } from './heartbeat';
import { TrainingPanel } from './training-panel';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const ago = (ms: number, from = NOW) => new Date(from - ms).toISOString();
const MIN = 60_000;
const dates = (train: Partial<Model['dates']['train']>) => makeModel({ train }).dates;

describe('heartbeat state', () => {
  it('live within the 5-minute heartbeat window, disconnected since the last beat after it', () => {
    expect(heartbeatState(dates({ start: ago(20 * MIN), initialized: ago(20 * MIN), heartbeat: ago(42_000) }), NOW)).toMatchObject({
      kind: 'live',
      ageMs: 42_000,
    });
    const quiet = heartbeatState(dates({ start: ago(20 * MIN), initialized: ago(20 * MIN), heartbeat: ago(7 * MIN) }), NOW);
    expect(quiet).toMatchObject({ kind: 'disconnected', ageMs: 7 * MIN });
    expect(quiet.kind === 'disconnected' && quiet.since.toISOString()).toBe(ago(7 * MIN));
    expect(heartbeatState(dates({ start: ago(20 * MIN), heartbeat: ago(5 * MIN) }), NOW).kind).toBe('live');
  });

  it('waits up to the 15-minute initialization window before a first beat; finished and never-started runs say so', () => {
    expect(heartbeatState(dates({ start: ago(10 * MIN), initialized: ago(10 * MIN) }), NOW).kind).toBe('waiting');
    expect(heartbeatState(dates({ start: ago(16 * MIN), initialized: ago(16 * MIN) }), NOW).kind).toBe('disconnected');
    expect(heartbeatState(dates({ start: ago(20 * MIN), heartbeat: ago(19 * MIN), end: ago(MIN) }), NOW).kind).toBe('finished');
    expect(heartbeatState(dates({}), NOW).kind).toBe('none');
  });
});

describe('training panel', () => {
  afterEach(() => vi.unstubAllGlobals());

  function serve(model: Model) {
    const api = fakeApi({
      [`GET /v1/models/${model.id}`]: () => model,
      [`GET /v1/models/${model.id}/metrics`]: () => [
        { epoch: 0, 'train/box_loss': 1.2, 'metrics/mAP50(B)': 0.3 },
        { epoch: 1, 'train/box_loss': 1.0, 'metrics/mAP50(B)': 0.4 },
      ],
      [`GET /v1/models/${model.id}/console`]: () => [
        { chunkId: 1, content: '[2026-05-01 11:50:00] Epoch 1/10\r\u001b[K[2026-05-01 11:50:01] Epoch 2/10', lineCount: 1, created: ago(0, Date.now()) },
      ],
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    return api;
  }
  const render = (model: Model) => renderRoutes([{ path: '/', element: <TrainingPanel model={model} /> }], { user: makeUser() });
  const running = (heartbeatAgo: number, protocol: 'platform' | 'hub' = 'platform') =>
    makeModel({
      config: { ...makeModel().config, epochs: 10 },
      train: { start: ago(30 * MIN, Date.now()), initialized: ago(30 * MIN, Date.now()), heartbeat: ago(heartbeatAgo, Date.now()) },
      metrics: { epochs: 2, best: null },
      training: {
        protocol,
        runId: 'run_1',
        outcome: 'running',
        cancelRequested: false,
        stale: null,
        lastEvent: ago(heartbeatAgo, Date.now()),
        epochsTotal: 10,
        bestEpoch: 1,
      },
    });

  it('a live Platform run: Training, heartbeat age, epochs, console lines and a Stop button', async () => {
    const model = running(42_000);
    serve(model);
    render(model);
    const panel = await screen.findByTestId('training-panel');
    expect(within(panel).getByTestId('training-status')).toHaveTextContent('Training');
    expect(within(panel).getByTestId('heartbeat')).toHaveTextContent(/Last heard from the client 4[2-4] seconds ago/);
    expect(within(panel).getByTestId('epoch-progress')).toHaveTextContent('Epoch 2 of 10');
    expect(await screen.findByTestId('training-console')).toHaveTextContent('[2026-05-01 11:50:01] Epoch 2/10');
    expect(screen.getByTestId('training-console')).not.toHaveTextContent('Epoch 1/10');
    expect(screen.getByRole('button', { name: 'Stop training' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('metric-chart')).toHaveLength(2);
  });

  it('a client quiet for 7 minutes: Timeout and an explicit "disconnected since"', async () => {
    const model = running(7 * MIN);
    serve(model);
    render(model);
    const heartbeat = await screen.findByTestId('heartbeat');
    expect(heartbeat).toHaveAttribute('data-state', 'disconnected');
    expect(heartbeat).toHaveTextContent(/^Disconnected since .+\(7 minutes ago\)$/);
    expect(screen.getByTestId('training-status')).toHaveTextContent('Timeout');
    expect(screen.getByTestId('timeout-alert')).toHaveTextContent('The client stopped reporting');
    expect(screen.queryByRole('button', { name: 'Stop training' })).not.toBeInTheDocument();
  });

  it('a legacy HUB run cannot be stopped from the page: the user is told to stop it where it runs', async () => {
    const model = running(MIN, 'hub');
    serve(model);
    render(model);
    expect(await screen.findByTestId('legacy-stop-note')).toHaveTextContent('Stop it where it runs');
    expect(screen.queryByRole('button', { name: 'Stop training' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('training-console')).not.toBeInTheDocument();
  });
});
