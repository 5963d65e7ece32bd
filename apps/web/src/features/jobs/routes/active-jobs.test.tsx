import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActiveJobs, ActiveRun, RoboflowImport } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import ActiveJobsPage from './active-jobs';

const noJobs: ActiveJobs = { uploads: [], processing: [] };
const rfImport = (over: Partial<RoboflowImport> = {}): RoboflowImport => ({
  id: 'imp1',
  project: 'acme/shapes-4ckfl',
  version: 2,
  status: 'downloading',
  progress: { phase: 'download', done: 5 * 1024 * 1024, total: 20 * 1024 * 1024 },
  error: null,
  dataset: null,
  dates: { created: '2026-11-25T10:00:00.000Z', updated: '2026-11-25T10:00:05.000Z', finished: null },
  ...over,
});

describe('/active-jobs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists a Roboflow import in flight with its progress, and cancels it; handed-over and finished imports are not listed', async () => {
    let imports = [
      rfImport(),
      rfImport({ id: 'imp2', version: 1, status: 'imported', progress: null, dataset: { id: 'd1', status: 'Ready', name: 'shapes' } }),
      rfImport({
        id: 'imp3',
        version: 3,
        status: 'failed',
        progress: null,
        error: { code: 'roboflow/export-timeout', message: 'Roboflow did not finish the export' },
      }),
    ];
    const api = fakeApi({
      'GET /v1/active-jobs': () => noJobs,
      'GET /v1/integrations/roboflow/imports': () => imports,
      'POST /v1/integrations/roboflow/imports/imp1/cancel': () => {
        imports = imports.map((i) => (i.id === 'imp1' ? { ...i, status: 'cancelled' as const, progress: null } : i));
        return imports[0];
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/active-jobs', element: <ActiveJobsPage /> }], { path: '/active-jobs', user: makeUser() });

    const section = await screen.findByTestId('roboflow-imports');
    const cards = within(section).getAllByTestId('job-import');
    expect(cards).toHaveLength(1);
    expect(cards[0]).toHaveTextContent('shapes-4ckfl · version 2');
    expect(cards[0]).toHaveTextContent('Roboflow import from acme');
    expect(cards[0]).toHaveTextContent('5.0 MB / 20.0 MB');
    expect(within(cards[0]!).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    await userEvent.click(within(cards[0]!).getByRole('button', { name: /cancel/i }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === '/v1/integrations/roboflow/imports/imp1/cancel')).toBe(true));
    // Cancelled: nothing is in flight any more, so the page says so.
    expect(await screen.findByText('No active jobs')).toBeInTheDocument();
    expect(screen.queryByTestId('roboflow-imports')).toBeNull();
  });

  it('lists training runs with the status the model header shows: Training, Timeout, and Stopped or Failed with the reason (ADR 0020)', async () => {
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    const run = (over: Partial<ActiveRun>): ActiveRun => ({
      id: 'm1',
      name: 'live run',
      projectId: 'p1',
      outcome: 'running',
      error: null,
      protocol: 'platform',
      epochsDone: 3,
      epochsTotal: 10,
      dates: { train: { start: at(600_000), end: null, heartbeat: at(5000), initialized: at(600_000) } },
      ...over,
    });
    const runs = [
      run({}),
      run({
        id: 'm2',
        name: 'quiet run',
        outcome: 'timeout',
        error: 'No word from the training run for 5 min after epoch 3',
        dates: { train: { start: at(900_000), end: null, heartbeat: at(400_000), initialized: at(900_000) } },
      }),
      run({
        id: 'm3',
        name: 'dead agent',
        outcome: 'failed',
        error: 'The agent "gpu-1" stopped responding (no heartbeat for 4 s)\nEpoch 3/10',
        dates: { train: { start: at(900_000), end: at(1000), heartbeat: at(60_000), initialized: at(900_000) } },
      }),
      run({
        id: 'm4',
        name: 'stopped run',
        outcome: 'cancelled',
        error: 'Stopped from the model page',
        dates: { train: { start: at(900_000), end: at(1000), heartbeat: at(60_000), initialized: at(900_000) } },
      }),
    ];
    const api = fakeApi({ 'GET /v1/active-jobs': () => noJobs, 'GET /v1/integrations/roboflow/imports': () => [], 'GET /v1/training/runs': () => runs });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/active-jobs', element: <ActiveJobsPage /> }], { path: '/active-jobs', user: makeUser() });

    const section = await screen.findByTestId('training-runs');
    const cards = within(section).getAllByTestId('job-training');
    expect(cards.map((c) => c.getAttribute('data-status'))).toEqual(['Training', 'Timeout', 'Failed', 'Stopped']);
    expect(within(cards[0]!).getByTestId('model-status')).toHaveTextContent('Training');
    expect(cards[0]).toHaveTextContent('Epoch 3 of 10');
    expect(within(cards[0]!).queryByTestId('job-training-reason')).toBeNull();
    expect(within(cards[1]!).getByTestId('job-training-reason')).toHaveTextContent('No word from the training run for 5 min after epoch 3');
    expect(within(cards[2]!).getByTestId('model-status')).toHaveTextContent('Failed');
    expect(within(cards[2]!).getByTestId('job-training-reason')).toHaveTextContent(/^The agent "gpu-1" stopped responding \(no heartbeat for 4 s\)$/);
    expect(within(cards[3]!).getByTestId('job-training-reason')).toHaveTextContent('Stopped from the model page');
    expect(within(cards[2]!).getByRole('link', { name: 'Open dead agent' })).toHaveAttribute('href', '/models/m3?tab=training');
  });
});
