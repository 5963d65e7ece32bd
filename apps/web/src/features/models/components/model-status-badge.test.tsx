import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelStatus, TRAINING_HEARTBEAT_MS, TRAINING_INITIALIZATION_MS } from '@sightline/contracts';
import { AppProviders } from '../../../app/providers';
import { realtime } from '../../../lib/realtime';
import { makeModel } from '../../../lib/test-factories';
import { testQueryClient } from '../../../test/render';
import { STATUS_TICK_MS } from '../hooks/use-model-status';
import { LiveModelStatusBadge, ModelStatusBadge } from './model-status-badge';

const NOW = new Date('2026-03-01T12:00:00Z').getTime();
const ago = (ms: number) => new Date(NOW - ms).toISOString();

function renderBadge(model: ReturnType<typeof makeModel>) {
  const client = testQueryClient(null);
  const utils = render(
    <AppProviders queryClient={client}>
      <LiveModelStatusBadge model={model} />
    </AppProviders>,
  );
  return {
    ...utils,
    rerenderWith: (next: ReturnType<typeof makeModel>) =>
      utils.rerender(
        <AppProviders queryClient={client}>
          <LiveModelStatusBadge model={next} />
        </AppProviders>,
      ),
  };
}
const badge = () => screen.getByTestId('model-status');

describe('model status badge (spec §4 via modelStatus)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('shows the computed status, not the HUB status field', () => {
    // The HUB client field says trained, but no train.end: the web app shows New.
    renderBadge(makeModel({ status: 'trained' }));
    expect(badge()).toHaveTextContent('New');
    expect(badge()).toHaveAttribute('data-status', 'New');
  });

  it('no dates → Status; train.end → Trained', () => {
    render(
      <AppProviders queryClient={testQueryClient(null)}>
        <ModelStatusBadge status={modelStatus(null)} />
      </AppProviders>,
    );
    expect(badge()).toHaveTextContent('Status');
    renderBadge(makeModel({ train: { start: ago(3_600_000), end: ago(1000), heartbeat: ago(1000) } }));
    expect(screen.getAllByTestId('model-status')[1]).toHaveTextContent('Trained');
  });

  it('Training until the heartbeat is 5 minutes old, then Timeout — the badge moves on its 30 s clock', () => {
    renderBadge(makeModel({ train: { start: ago(3_600_000), heartbeat: ago(TRAINING_HEARTBEAT_MS - 20_000) } }));
    expect(badge()).toHaveTextContent('Training');
    act(() => vi.advanceTimersByTime(STATUS_TICK_MS));
    expect(badge()).toHaveTextContent('Timeout');
  });

  it('Initializing within 15 minutes of initialized, then Timeout', () => {
    renderBadge(makeModel({ train: { start: ago(TRAINING_INITIALIZATION_MS), initialized: ago(TRAINING_INITIALIZATION_MS - 10_000) } }));
    expect(badge()).toHaveTextContent('Initializing');
    act(() => vi.advanceTimersByTime(STATUS_TICK_MS));
    expect(badge()).toHaveTextContent('Timeout');
  });

  it('exactly at the 5-minute boundary is still Training (≤), one tick later it is not', () => {
    renderBadge(makeModel({ train: { start: ago(600_000), heartbeat: ago(TRAINING_HEARTBEAT_MS) } }));
    expect(badge()).toHaveTextContent('Training');
    act(() => vi.advanceTimersByTime(STATUS_TICK_MS));
    expect(badge()).toHaveTextContent('Timeout');
  });

  const run = (outcome: 'running' | 'cancelled' | 'failed' | 'timeout', error: string | null = null) => ({
    protocol: 'platform' as const,
    runId: 'run_1',
    outcome,
    error,
    ended: outcome === 'cancelled' || outcome === 'failed' ? ago(1000) : null,
    cancelRequested: outcome === 'cancelled',
    stale: outcome === 'timeout' ? ago(1000) : null,
    lastEvent: ago(60_000),
    epochsTotal: 10,
    bestEpoch: null,
  });

  it('the run state the server decided wins over the dates (ADR 0020): Stopped, Failed and Timeout with a readable reason', () => {
    const ended = { start: ago(600_000), end: ago(1000), heartbeat: ago(60_000), initialized: ago(600_000) };
    const failed = renderBadge(
      makeModel({ train: ended, training: run('failed', 'The agent "gpu-1" stopped responding (no heartbeat for 4 s)\nEpoch 3/10 ...') }),
    );
    // train.end alone would read Trained.
    expect(badge()).toHaveTextContent('Failed');
    expect(badge()).toHaveAttribute('data-reason', 'The agent "gpu-1" stopped responding (no heartbeat for 4 s)');
    expect(badge()).toHaveAccessibleName('Failed: The agent "gpu-1" stopped responding (no heartbeat for 4 s)');
    failed.unmount();

    const stopped = renderBadge(makeModel({ train: ended, training: run('cancelled', 'Stopped from the model page') }));
    expect(badge()).toHaveTextContent('Stopped');
    expect(badge()).toHaveAttribute('data-reason', 'Stopped from the model page');
    stopped.unmount();

    // Timed out by the server's window although the dates alone would still say Training.
    renderBadge(
      makeModel({
        train: { start: ago(600_000), heartbeat: ago(60_000), initialized: ago(600_000) },
        training: run('timeout', 'No word from the training run for 5 min after epoch 3'),
      }),
    );
    expect(badge()).toHaveTextContent('Timeout');
    expect(badge()).toHaveAttribute('data-reason', 'No word from the training run for 5 min after epoch 3');
  });

  it('a live Platform run is Training whatever the HUB status field says; a finished one has no reason', () => {
    const live = renderBadge(
      makeModel({ status: 'new', train: { start: ago(120_000), heartbeat: ago(5000), initialized: ago(120_000) }, training: run('running') }),
    );
    expect(badge()).toHaveTextContent('Training');
    expect(badge()).not.toHaveAttribute('data-reason');
    live.unmount();
  });

  it('watches model:<id> live until the model is Trained', () => {
    const model = makeModel({ train: { start: ago(60_000), heartbeat: ago(10_000) } });
    const { rerenderWith, unmount } = renderBadge(model);
    expect(realtime.subscribedTopics).toContain(`model:${model.id}`);
    rerenderWith({ ...model, dates: { ...model.dates, train: { ...model.dates.train, end: ago(0) } } });
    expect(badge()).toHaveTextContent('Trained');
    expect(realtime.subscribedTopics).not.toContain(`model:${model.id}`);
    unmount();
  });
});
