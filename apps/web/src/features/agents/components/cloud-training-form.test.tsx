import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CloudEstimate, CloudRun } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { fakeApi, makeModel } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { CloudTrainingForm } from './cloud-training-form';

const model = makeModel({ id: 'mCloud0000000000001' });
const estimate = (over: Partial<CloudEstimate> = {}): CloudEstimate => ({
  gpuType: 'rtx-4090',
  mode: 'epochs',
  epochs: 10,
  hours: 0.5,
  estimateMicro: 1_800_000,
  pricePerEpochMicro: 180_000,
  walletMicro: 50_000_000,
  canStart: true,
  reason: null,
  ...over,
});
const run = (over: Partial<CloudRun> = {}): CloudRun => ({
  job: {
    id: 'j1',
    kind: 'train',
    status: 'running',
    modelId: model.id,
    exportId: null,
    userId: 'u1',
    agentId: 'a1',
    gpuType: 'rtx-4090',
    attempts: 1,
    error: null,
    exitCode: null,
    created: '2026-01-01T10:00:00.000Z',
    started: '2026-01-01T10:00:05.000Z',
    finished: null,
    cancelRequested: false,
  },
  holdMicro: 1_800_000,
  settledMicro: 540_000,
  epochsSettled: 3,
  epochs: 10,
  pricePerEpochMicro: 180_000,
  charged: true,
  ...over,
});

describe('cloud training form', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('picks the GPU type with an agent online, shows the estimate, starts; the run card shows cost so far and stops', async () => {
    let current: CloudRun | null = null;
    const api = fakeApi({
      'GET /v1/gpu-types': () => [
        { id: 'a100', name: 'A100', match: 'A100', hourlyRateMicro: 2_000_000, imagesPerSecond: 400, enabled: true, online: 0 },
        { id: 'rtx-4090', name: 'RTX 4090', match: 'RTX 4090', hourlyRateMicro: 3_600_000, imagesPerSecond: 200, enabled: true, online: 2 },
      ],
      [`GET /v1/models/${model.id}/cloud`]: () => current,
      [`POST /v1/models/${model.id}/cloud/estimate`]: () => estimate(),
      [`POST /v1/models/${model.id}/cloud/train`]: () => (current = run({ settledMicro: 0, epochsSettled: 0, job: { ...run().job, status: 'queued' } })),
      [`POST /v1/models/${model.id}/cloud/stop`]: () => (current = run({ job: { ...run().job, cancelRequested: true } })),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/m', element: <CloudTrainingForm model={model} /> }], { path: '/m', user: makeUser() });

    await waitFor(() => expect(screen.getByTestId('cloud-gpu-type')).toHaveValue('RTX 4090 · $3.60/h · 2 online'));
    expect(await screen.findByTestId('cloud-estimate')).toHaveTextContent('Estimate $1.80 for 10 epochs');
    expect(api.calls.find((c) => c.path.endsWith('/cloud/estimate'))?.body).toMatchObject({ gpuType: 'rtx-4090', mode: 'epochs' });
    await userEvent.click(screen.getByTestId('cloud-start'));
    expect(await screen.findByTestId('cloud-run-status')).toHaveTextContent('Queued');

    current = run();
    await waitFor(() => expect(screen.getByTestId('cloud-cost')).toHaveTextContent('$0.54'), { timeout: 5000 });
    expect(screen.getByTestId('cloud-epochs')).toHaveTextContent('3 / 10');
    await userEvent.click(screen.getByTestId('cloud-stop'));
    await waitFor(() => expect(screen.getByTestId('cloud-stop')).toHaveTextContent('Stopping'));
  });

  it('says why a run cannot start (wallet below the estimate)', async () => {
    const api = fakeApi({
      'GET /v1/gpu-types': () => [
        { id: 'rtx-4090', name: 'RTX 4090', match: 'RTX 4090', hourlyRateMicro: 3_600_000, imagesPerSecond: 200, enabled: true, online: 1 },
      ],
      [`GET /v1/models/${model.id}/cloud`]: () => null,
      [`POST /v1/models/${model.id}/cloud/estimate`]: () => estimate({ canStart: false, reason: 'The estimate is $1.80 but your wallet holds $1.00' }),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/m', element: <CloudTrainingForm model={model} /> }], { path: '/m', user: makeUser() });
    expect(await screen.findByTestId('cloud-refused')).toHaveTextContent('your wallet holds $1.00');
    expect(screen.getByTestId('cloud-start')).toBeDisabled();
  });
});
