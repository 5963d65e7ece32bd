import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelExport } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { fakeApi, makeModel } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { ModelExports } from './model-exports';

const model = makeModel({
  id: 'mExports00000000001',
  files: [{ kind: 'best', name: 'best.pt', bytes: 6_000_000, epoch: null, created: '2026-01-01T10:00:00.000Z', url: '/v1/files/signed' }],
});
const base: ModelExport = {
  id: 'e1',
  modelId: model.id,
  format: 'onnx',
  options: {},
  status: 'succeeded',
  auto: false,
  fileName: 'best.onnx',
  bytes: 12_058_000,
  error: null,
  attempts: 1,
  jobId: 'j1',
  created: '2026-01-01T10:00:00.000Z',
  finished: '2026-01-01T10:01:00.000Z',
  downloadUrl: `/v1/models/${model.id}/exports/e1/download`,
  canRetry: false,
};
const failed: ModelExport = {
  ...base,
  id: 'e2',
  format: 'tflite',
  options: { int8: true },
  status: 'failed',
  bytes: null,
  fileName: null,
  downloadUrl: null,
  jobId: 'j2',
  error: "yolo exited with code 1\nModuleNotFoundError: No module named 'tflite'",
  canRetry: true,
};

describe('model exports', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('lists exports with status, options, size and download; shows the log; retries a failed one; requests a new export with options', async () => {
    let exportsNow = [base, failed];
    const api = fakeApi({
      [`GET /v1/models/${model.id}/exports`]: () => ({ exports: exportsNow, agentsOnline: 1, worker: { available: true, local: 'off', reason: null } }),
      'GET /v1/agent-jobs/j2/log': () => ({ lines: ['Traceback (most recent call last):\n', "ModuleNotFoundError: No module named 'tflite'\n"], next: 1 }),
      [`POST /v1/models/${model.id}/exports/e2/retry`]: () => {
        exportsNow = [base, { ...failed, status: 'queued', attempts: 2, canRetry: false }];
        return exportsNow[1];
      },
      [`POST /v1/models/${model.id}/exports`]: (body) => {
        const b = body as { format: ModelExport['format']; options: ModelExport['options'] };
        const row = { ...base, id: 'e3', format: b.format, options: b.options, status: 'queued' as const, bytes: null, downloadUrl: null, jobId: 'j3' };
        exportsNow = [row, ...exportsNow];
        return row;
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/m', element: <ModelExports model={model} /> }], { path: '/m', user: makeUser() });

    const onnx = await screen.findByTestId('export-row-onnx');
    expect(within(onnx).getByTestId('export-status')).toHaveTextContent('Ready');
    expect(within(onnx).getByTestId('export-size')).toHaveTextContent('11.5 MB');
    expect(within(onnx).getByRole('link', { name: 'Download' })).toHaveAttribute('href', `/v1/models/${model.id}/exports/e1/download`);
    const tflite = screen.getByTestId('export-row-tflite');
    expect(within(tflite).getByTestId('export-status')).toHaveTextContent('Failed');
    expect(within(tflite).getByText('int8=true')).toBeInTheDocument();

    await userEvent.click(within(tflite).getByTestId('export-log-button'));
    expect(await screen.findByTestId('export-log')).toHaveTextContent("ModuleNotFoundError: No module named 'tflite'");
    await userEvent.keyboard('{Escape}');

    await userEvent.click(within(tflite).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(screen.getByTestId('export-row-tflite')).getByTestId('export-status')).toHaveTextContent('Queued'));
    expect(screen.getByText('attempt 2')).toBeInTheDocument();

    await userEvent.click(screen.getByText('Advanced options'));
    await userEvent.click(screen.getByLabelText('FP16 (half)'));
    await userEvent.type(screen.getByLabelText('Image size (imgsz)'), '320');
    await userEvent.click(screen.getByTestId('export-start'));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST' && c.path === `/v1/models/${model.id}/exports`)?.body).toEqual({
        format: 'onnx',
        options: { half: true, imgsz: 320 },
      }),
    );
  });

  it('says why a queued export waits: no agent online', async () => {
    const api = fakeApi({
      [`GET /v1/models/${model.id}/exports`]: () => ({
        exports: [{ ...base, status: 'queued', bytes: null, downloadUrl: null, auto: true }],
        agentsOnline: 0,
        worker: { available: false, local: 'off', reason: null },
      }),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/m', element: <ModelExports model={model} /> }], { path: '/m', user: makeUser() });
    expect(await screen.findByTestId('no-agent')).toBeInTheDocument();
    expect(screen.getByTestId('auto-onnx-waiting')).toBeInTheDocument();
  });

  it('no "no agent" warning while the built-in export worker can run it (ADR 0022)', async () => {
    const api = fakeApi({
      [`GET /v1/models/${model.id}/exports`]: () => ({
        exports: [{ ...base, status: 'queued', bytes: null, downloadUrl: null, auto: true }],
        agentsOnline: 0,
        worker: { available: true, local: 'ready', reason: null },
      }),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/m', element: <ModelExports model={model} /> }], { path: '/m', user: makeUser() });
    expect(await screen.findByTestId('auto-onnx-waiting', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('no-agent')).not.toBeInTheDocument();
  }, 15_000);
});
