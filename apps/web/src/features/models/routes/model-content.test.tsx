import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { fakeApi, makeModel, READ_ONLY } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import ModelContentPage from './model-content';

const routes = [{ path: '/models/:id', element: <ModelContentPage /> }];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

const uploaded = makeModel({
  id: 'mUploaded0000000001',
  meta: { name: 'shapes', description: 'three shapes', privacy: 'unlisted' },
  project: { id: 'p1', name: 'Shapes' },
  names: ['red_square', 'green_circle'],
  totals: { bytes: 12_800 },
  files: [{ kind: 'onnx', name: 'shapes3-detect.onnx', bytes: 12_800, epoch: null, created: '2026-01-01T10:00:00.000Z', url: '/v1/files/signed' }],
  lineage: { architecture: { id: 'yolo11n', name: 'YOLO11n' }, parent: { id: 'mParent000000000001', name: 'base', path: null, url: null } },
  dataset: { id: 'd1', name: 'coco8', filepath: null, url: '/datasets/d1', type: null, version: 3 },
  train: { start: '2026-01-01T09:00:00.000Z', end: '2026-01-01T10:00:00.000Z' },
  status: 'trained',
});

function serve(model: Model, patch?: (body: unknown) => unknown) {
  const api = fakeApi({
    [`GET /v1/models/${model.id}`]: () => model,
    [`PATCH /v1/models/${model.id}`]: (body) => (patch ? patch(body) : model),
  });
  vi.stubGlobal('fetch', vi.fn(api.fetch));
  return api;
}

describe('model page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('opens read-only for a signed-out visitor: details, files with sizes, lineage and dataset links', async () => {
    serve({ ...uploaded, abilities: READ_ONLY });
    renderRoutes(routes, { path: `/models/${uploaded.id}`, user: null });
    expect(await screen.findByTestId('model-name')).toHaveTextContent('shapes');
    expect(screen.getByTestId('model-status')).toHaveTextContent('Trained');
    for (const name of ['Edit', 'Share', 'Delete', 'Train']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('model-files')).getByTestId('model-file-size')).toHaveTextContent('12.5 KB');
    expect(screen.getByRole('link', { name: 'Download shapes3-detect.onnx' })).toHaveAttribute('href', '/v1/files/signed');
    expect(screen.getByTestId('lineage-parent')).toHaveAttribute('href', '/models/mParent000000000001');
    expect(screen.getByTestId('dataset-link')).toHaveAttribute('href', '/datasets/d1');
    // The version it trained on (ADR 0038), highlighted on the dataset's Versions tab.
    expect(screen.getByTestId('dataset-version-link')).toHaveAttribute('href', '/datasets/d1?tab=versions&version=3');
    expect(screen.getByTestId('dataset-version-link')).toHaveTextContent('Version 3');
    expect(within(screen.getByTestId('model-config')).getByText('Auto (-1)')).toBeInTheDocument();
  });

  it('Deploy tab shows the predict URL of this server', async () => {
    serve(uploaded);
    renderRoutes(routes, { path: `/models/${uploaded.id}?tab=deploy`, user: makeUser() });
    expect(await screen.findByTestId('predict-url')).toHaveValue(`${window.location.origin}/v1/predict/${uploaded.id}`);
  });

  it("owner edits the name: 'Model Updated' with an Open link to the model", async () => {
    const api = serve(uploaded, (body) => ({ ...uploaded, meta: { ...uploaded.meta, ...(body as { meta: object }).meta } }));
    renderRoutes(routes, { path: `/models/${uploaded.id}`, user: makeUser() });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit model' });
    // A trained model keeps its training configuration.
    expect(within(dialog).getByText('The training configuration of a trained model cannot change.')).toBeInTheDocument();
    const name = within(dialog).getByLabelText(/Name/);
    await userEvent.clear(name);
    await userEvent.type(name, 'renamed');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('model-name')).toHaveTextContent('renamed'));
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ meta: { name: 'renamed', description: 'three shapes' } });
    const toast = notifications.store.getState().active.at(-1);
    expect(toast).toMatchObject({ type: 'success', message: 'Model Updated', link: { text: 'Open', path: `/models/${uploaded.id}` } });
  });

  it("a refused edit reads 'Unable to Update Model'; a new model may change its config", async () => {
    const fresh = makeModel({ id: 'mFresh0000000000001', meta: { name: 'fresh', description: '', privacy: 'private' } });
    const api = serve(fresh, () => json(500, { error: { code: 'error/unknown', message: 'boom' } }));
    renderRoutes(routes, { path: `/models/${fresh.id}`, user: makeUser() });
    expect(await screen.findByTestId('model-status')).toHaveTextContent('New');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit model' });
    const epochs = within(dialog).getByLabelText('Epochs');
    await userEvent.clear(epochs);
    await userEvent.type(epochs, '50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(notifications.store.getState().active.at(-1)).toMatchObject({ type: 'error', message: 'Unable to Update Model' }));
    expect((api.calls.find((c) => c.method === 'PATCH')?.body as { config: { epochs: number } }).config.epochs).toBe(50);
  });

  it('a private model that cannot be read shows not found', async () => {
    vi.stubGlobal('fetch', vi.fn(fakeApi({}).fetch));
    renderRoutes(routes, { path: '/models/mMissing00000000001', user: null });
    expect(await screen.findByText('Model not found')).toBeInTheDocument();
  });

  describe('uploaded .pt weights (ADR 0022)', { timeout: 20_000 }, () => {
    const pt = makeModel({
      id: 'mPt0000000000000001',
      meta: { name: 'shapes', description: '', privacy: 'private' },
      origin: 'uploaded',
      imageSize: null,
      task: null,
      names: [],
      files: [{ kind: 'best', name: 'shapes3-detect.pt', bytes: 6_000_000, epoch: null, created: '2026-01-01T10:00:00.000Z', url: '/v1/files/signed' }],
      train: { end: '2026-01-01T10:00:00.000Z' },
      status: 'trained',
    });
    const queued = {
      id: 'e1',
      modelId: pt.id,
      format: 'onnx',
      options: {},
      status: 'queued',
      auto: true,
      fileName: null,
      bytes: null,
      error: null,
      attempts: 1,
      jobId: 'j1',
      created: '2026-01-01T10:00:00.000Z',
      finished: null,
      downloadUrl: null,
      canRetry: false,
    };
    const token = `sla_${'a1'.repeat(20)}`;
    function serveUpload(model: Model, worker: { available: boolean; local: string; reason: string | null }) {
      const api = fakeApi({
        [`GET /v1/models/${model.id}`]: () => model,
        [`GET /v1/models/${model.id}/exports`]: () => ({ exports: [queued], agentsOnline: 0, worker }),
        'POST /v1/agents': () => ({ agent: { id: 'a1', name: 'My agent', shared: false }, token }),
      });
      vi.stubGlobal('fetch', vi.fn(api.fetch));
      return api;
    }

    it('with no worker the Preview tab says so before any image, and one click shows the command that starts an agent', async () => {
      const api = serveUpload(pt, { available: false, local: 'unavailable', reason: '`yolo version` did not run here' });
      renderRoutes(routes, { path: `/models/${pt.id}?tab=preview`, user: makeUser() });
      const notice = await screen.findByTestId('no-export-worker', {}, { timeout: 5000 });
      expect(notice).toHaveTextContent('Nothing can export this model yet');
      expect(notice).toHaveTextContent('`yolo version` did not run here');
      fireEvent.click(within(notice).getByTestId('start-agent-button'));
      const command = await within(notice).findByTestId('start-agent-command', {}, { timeout: 5000 });
      expect(command).toHaveTextContent(`node apps/agent/bin/sightline-agent.mjs --hub ${window.location.origin} --token ${token}`);
      expect(api.calls.find((c) => c.method === 'POST' && c.path === '/v1/agents')?.body).toEqual({ name: 'My agent', shared: false });
      expect(api.calls.some((c) => c.path.startsWith('/v1/predict'))).toBe(false);
    });

    it('the Deploy tab says it too; with a worker available, or for a viewer who cannot export, it says nothing', async () => {
      serveUpload(pt, { available: false, local: 'off', reason: null });
      const view = renderRoutes(routes, { path: `/models/${pt.id}?tab=deploy`, user: makeUser() });
      expect(await screen.findByTestId('no-export-worker', {}, { timeout: 5000 })).toBeInTheDocument();
      view.unmount();
      vi.unstubAllGlobals();
      const api = serveUpload(pt, { available: true, local: 'ready', reason: null });
      renderRoutes(routes, { path: `/models/${pt.id}?tab=preview`, user: makeUser() });
      await waitFor(() => expect(api.calls.some((c) => c.path === `/v1/models/${pt.id}/exports`)).toBe(true));
      await screen.findByTestId('preview-panel', {}, { timeout: 5000 });
      expect(screen.queryByTestId('no-export-worker')).not.toBeInTheDocument();
    });

    it('shows no training configuration: task, classes and image size from the file once known', async () => {
      serveUpload({ ...pt, task: 'detect', names: ['square', 'circle', 'triangle'], imageSize: 160 }, { available: true, local: 'running', reason: null });
      renderRoutes(routes, { path: `/models/${pt.id}`, user: makeUser() });
      const details = await screen.findByTestId('model-details', {}, { timeout: 5000 });
      expect(details).toHaveTextContent('detect');
      expect(details).toHaveTextContent('triangle');
      expect(within(details).getByText('160')).toBeInTheDocument();
      expect(screen.queryByTestId('model-config')).not.toBeInTheDocument();
      expect(screen.queryByText('300')).not.toBeInTheDocument();
    });
  });
});
