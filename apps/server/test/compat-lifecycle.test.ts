import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeWeights, requestsMultipart, send, shapes3Dataset, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';

/**
 * Training runs start clean (ADR 0014), over real HTTP as the ultralytics clients speak: a Stop
 * applies to the run it was pressed on (a resumed legacy run that finishes all its epochs completes),
 * and client-trained models get the class names of their dataset instead of `names: []`.
 */
let s: LiveServer;
let alice: Awaited<ReturnType<typeof userWithKey>>;
let dataset: { id: string };
let classNames: string[];

beforeAll(async () => {
  s = await startLiveServer();
  alice = await userWithKey(s.t, 'alice');
  dataset = await shapes3Dataset(s.t, alice.user.id);
  classNames = (await s.t.app.inject({ method: 'GET', url: `/v1/datasets/${dataset.id}`, headers: { cookie: alice.cookie } })).json().data.stats.classes;
  expect(classNames.length).toBeGreaterThan(0);
});
afterAll(async () => {
  await s?.close();
});

const api = (path: string) => `${s.origin}${path}`;
const hubKey = () => ({ 'x-api-key': alice.legacyKey, 'Content-Type': 'application/json' });
const heartbeat = (id: string, agentId: string | null) =>
  send(api(`/v1/agent/heartbeat/models/${id}`), { method: 'POST', headers: hubKey(), body: JSON.stringify({ agent: 'python-3.11.2-local', agentId }) });
const metrics = (id: string, epoch: number) =>
  send(api(`/v1/models/${id}`), {
    method: 'POST',
    headers: hubKey(),
    body: JSON.stringify({
      metrics: { [epoch]: JSON.stringify({ 'metrics/mAP50(B)': 0.1 * epoch, 'metrics/mAP50-95(B)': 0.05 * epoch, 'val/box_loss': 1 }) },
      type: 'metrics',
    }),
  });
const hubUpload = (id: string, fields: Array<[string, string]>, name: string, content: Buffer) => {
  const mp = requestsMultipart(fields, { name, content });
  return send(api(`/v1/models/${id}/upload`), { method: 'POST', headers: { 'x-api-key': alice.legacyKey, 'Content-Type': mp.contentType }, body: mp.body });
};
const stop = (id: string) => s.t.app.inject({ method: 'POST', url: `/v1/models/${id}/stop`, headers: { cookie: alice.cookie } });
const model = async (id: string) => (await s.t.app.inject({ method: 'GET', url: `/v1/models/${id}`, headers: { cookie: alice.cookie } })).json().data;

async function newModel() {
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/v1/models',
    headers: { cookie: alice.cookie },
    payload: { dataset: { id: dataset.id }, lineage: { architecture: { name: 'yolo11n' } }, config: { epochs: 3 } },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

describe('legacy (HUB) client: Stop and resume', () => {
  it('a Stop pressed on one run does not end a resumed run that finishes all its epochs as cancelled', async () => {
    const id = await newModel();
    const first = await heartbeat(id, null);
    const agentId = first.json().data.agentId as string;
    expect((await metrics(id, 0)).status).toBe(200);
    expect(
      (
        await hubUpload(
          id,
          [
            ['epoch', '0'],
            ['type', 'epoch'],
            ['isBest', 'True'],
          ],
          'last.pt',
          fakeWeights(20_000, 'e0'),
        )
      ).status,
    ).toBe(200);
    expect((await stop(id)).statusCode).toBe(200);
    expect((await model(id)).training).toMatchObject({ cancelRequested: true, outcome: 'running' });

    // The user stops the process; later `yolo train resume` starts a new one: its first heartbeat has no agentId.
    s.t.clock.advance(30 * 60_000);
    expect((await heartbeat(id, null)).status).toBe(200);
    expect((await model(id)).training).toMatchObject({ cancelRequested: false, outcome: 'running' });
    for (const e of [1, 2]) expect((await metrics(id, e)).status).toBe(200);
    expect((await heartbeat(id, agentId)).status).toBe(200);
    expect(
      (
        await hubUpload(
          id,
          [
            ['epoch', '2'],
            ['type', 'final'],
            ['map', '0.1'],
          ],
          'best.pt',
          fakeWeights(30_000, 'final'),
        )
      ).status,
    ).toBe(200);

    const done = await model(id);
    expect(done.training).toMatchObject({ outcome: 'completed', cancelRequested: false });
    expect(done.status).toBe('trained');
    expect(done.names).toEqual(classNames);
  });

  it('a Stop during a run the same process finishes to its last epoch still ends completed (HUB clients cannot be told to stop)', async () => {
    const id = await newModel();
    const agentId = (await heartbeat(id, null)).json().data.agentId as string;
    expect((await stop(id)).statusCode).toBe(200);
    for (const e of [0, 1, 2]) await metrics(id, e);
    expect((await heartbeat(id, agentId)).status).toBe(200);
    expect((await model(id)).training).toMatchObject({ cancelRequested: true, outcome: 'running' });
    expect(
      (
        await hubUpload(
          id,
          [
            ['epoch', '2'],
            ['type', 'final'],
            ['map', '0.1'],
          ],
          'best.pt',
          fakeWeights(10_000, 'all'),
        )
      ).status,
    ).toBe(200);
    expect((await model(id)).training).toMatchObject({ outcome: 'completed' });
  });

  it('a run that ends early after its Stop is cancelled', async () => {
    const id = await newModel();
    await heartbeat(id, null);
    expect((await stop(id)).statusCode).toBe(200);
    expect(
      (
        await hubUpload(
          id,
          [
            ['epoch', '0'],
            ['type', 'final'],
            ['map', '0.0'],
          ],
          'best.pt',
          fakeWeights(5000, 'early'),
        )
      ).status,
    ).toBe(200);
    expect((await model(id)).training).toMatchObject({ cancelRequested: true, outcome: 'cancelled' });
  });
});

describe('current (Platform) client', () => {
  const bearer = () => ({ Authorization: `Bearer ${alice.key}`, 'Content-Type': 'application/json' });
  const webhook = (body: object) => send(api('/api/webhooks/training/metrics'), { method: 'POST', headers: bearer(), body: JSON.stringify(body) });

  it("a model whose run reports no class names gets the dataset's", async () => {
    const started = await webhook({
      event: 'training_started',
      project: 'alice/Lifecycle',
      name: 'names',
      data: { trainArgs: { task: 'detect', model: 'yolo11n.pt', data: 'ul://alice/datasets/shapes3', epochs: '1' }, epochs: 1 },
    });
    expect(started.status).toBe(200);
    const { modelId, runId } = started.json() as { modelId: string; runId: string };
    expect((await webhook({ event: 'epoch_end', modelId, data: { epoch: 0, metrics: { 'val/box_loss': 1 } } })).json().cancelled).toBe(false);
    expect((await webhook({ event: 'training_complete', modelId, data: { results: { metrics: {} }, runId } })).status).toBe(200);
    const m = await model(modelId);
    expect(m.dataset.id).toBe(dataset.id);
    expect(m.names).toEqual(classNames);
    expect(m.training).toMatchObject({ outcome: 'completed' });
  });
});
