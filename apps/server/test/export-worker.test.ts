import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { enqueueJob } from '../src/modules/agents/agents.service.js';
import { agentsRepository } from '../src/modules/agents/agents.repository.js';
import { ExportWorker, exportWorkerOf } from '../src/modules/exports/exports.local-worker.js';
import type { AppContext } from '../src/context.js';
import { FIXTURES, multipart } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { requestsMultipart, send, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';
import { STANDIN_YOLO, waitFor } from './support/agents.js';

/**
 * Export and preview out of the box (ADR 0022): an uploaded `.pt` and a finished client run get
 * their ONNX export queued by the server itself; the built-in export worker (the agent as a child
 * of the server) runs it where `yolo` runs, and is off in test servers unless a test asks; the
 * exports API says when nothing can run exports; an uploaded model has no training configuration.
 * The worker's `yolo` here is the stand-in (no ultralytics in this suite); the real one runs in
 * test-clients/export-predict.test.ts.
 */

const PT = path.join(FIXTURES, 'shapes3-detect.pt');
const ONNX = path.join(FIXTURES, 'shapes3-detect.onnx');
const servers: LiveServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(env: Record<string, string> = {}) {
  const s = await startLiveServer(env);
  servers.push(s);
  return s;
}

const get = (s: LiveServer, url: string, cookie: string) => s.t.app.inject({ method: 'GET', url, headers: { cookie } });

async function uploadPt(s: LiveServer, cookie: string) {
  const mp = multipart({ model_name: 'shapes' }, { filename: 'shapes3-detect.pt', content: fs.readFileSync(PT) });
  const res = await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

describe('automatic ONNX exports and the worker state (no worker)', () => {
  let s: LiveServer;
  beforeAll(async () => {
    s = await startLiveServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a .pt upload queues its ONNX export by itself; the exports API says no worker can run it', async () => {
    const user = await buildUser(s.t.app);
    const id = await uploadPt(s, user.cookie);
    const body = (await get(s, `/v1/models/${id}/exports`, user.cookie)).json().data;
    expect(body.exports).toHaveLength(1);
    expect(body.exports[0]).toMatchObject({ format: 'onnx', auto: true, status: 'queued' });
    expect(body.agentsOnline).toBe(0);
    // Test servers run no built-in worker unless asked: nothing at all can export here.
    expect(body.worker).toEqual({ available: false, local: 'off', reason: expect.stringContaining('EXPORT_WORKER=off') });
    // An .onnx upload is its own inference file: nothing is queued.
    const mp = multipart({}, { filename: 'shapes3-detect.onnx', content: fs.readFileSync(ONNX) });
    const onnx = (
      await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: user.cookie }, payload: mp.payload })
    ).json().data.id;
    expect((await get(s, `/v1/models/${onnx}/exports`, user.cookie)).json().data.exports).toEqual([]);
  });

  it('an uploaded model shows no training configuration (origin uploaded, image size unknown); a model made here does', async () => {
    const user = await buildUser(s.t.app);
    const id = await uploadPt(s, user.cookie);
    const model = (await get(s, `/v1/models/${id}`, user.cookie)).json().data;
    expect(model).toMatchObject({ origin: 'uploaded', imageSize: null, task: null, names: [] });
    const made = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: user.cookie },
      payload: { meta: { name: 'here' }, config: { imageSize: 320 } },
    });
    expect(made.json().data).toMatchObject({ origin: 'created', imageSize: 320 });
    // The ONNX upload's metadata is known at once.
    const mp = multipart({}, { filename: 'shapes3-detect.onnx', content: fs.readFileSync(ONNX) });
    const onnx = (
      await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: user.cookie }, payload: mp.payload })
    ).json().data.id;
    expect((await get(s, `/v1/models/${onnx}`, user.cookie)).json().data).toMatchObject({ origin: 'uploaded', task: 'detect', imageSize: 160 });
  });

  it('a finished client run without ONNX queues its export at once, with no agent online', async () => {
    const alice = await userWithKey(s.t);
    const made = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: alice.cookie },
      payload: { lineage: { architecture: { name: 'yolov8n.yaml' } }, config: { epochs: 1 } },
    });
    const id = made.json().data.id as string;
    const key = { 'x-api-key': alice.legacyKey, 'Content-Type': 'application/json' };
    expect(
      (await send(`${s.origin}/v1/agent/heartbeat/models/${id}`, { method: 'POST', headers: key, body: '{"agent": "python-3.11.2-local", "agentId": null}' }))
        .status,
    ).toBe(200);
    expect((await get(s, `/v1/models/${id}/exports`, alice.cookie)).json().data.exports).toEqual([]);
    const mp = requestsMultipart(
      [
        ['epoch', '0'],
        ['type', 'final'],
        ['map', '0.5'],
      ],
      { name: 'best.pt', content: fs.readFileSync(PT) },
    );
    const up = await send(`${s.origin}/v1/models/${id}/upload`, {
      method: 'POST',
      headers: { 'x-api-key': alice.legacyKey, 'Content-Type': mp.contentType },
      body: mp.body,
    });
    expect(up.status).toBe(200);
    const list = (await get(s, `/v1/models/${id}/exports`, alice.cookie)).json().data.exports;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ format: 'onnx', auto: true, status: 'queued' });
    expect((await get(s, `/v1/models/${id}`, alice.cookie)).json().data.origin).toBe('created');
  });
});

describe('the built-in export worker', () => {
  it('is off in test servers and by EXPORT_WORKER=off, on by default elsewhere; unavailable with the reason where yolo does not run', async () => {
    expect(loadConfig({ NODE_ENV: 'test' }).exportWorker).toEqual({ enabled: false, yolo: 'yolo' });
    expect(loadConfig({ NODE_ENV: 'development' }).exportWorker).toEqual({ enabled: true, yolo: 'yolo' });
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).exportWorker.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', EXPORT_WORKER: 'off' }).exportWorker.enabled).toBe(false);
    expect(() => loadConfig({ EXPORT_WORKER: 'sometimes' })).toThrow(/EXPORT_WORKER/);
    const log = { info: () => undefined, warn: () => undefined };
    // Opted out: never probes, even with a yolo that runs.
    const off = new ExportWorker({
      config: loadConfig({ NODE_ENV: 'development', EXPORT_WORKER: 'off', EXPORT_WORKER_YOLO: STANDIN_YOLO }),
      log,
    } as unknown as AppContext);
    await off.probe('http://127.0.0.1:9');
    expect(off.state).toBe('off');
    expect(off.version).toBeNull();
    const missing = new ExportWorker({
      config: loadConfig({ NODE_ENV: 'development', EXPORT_WORKER_YOLO: '/nonexistent/yolo' }),
      log,
    } as unknown as AppContext);
    expect(missing.state).toBe('probing');
    await missing.probe('http://127.0.0.1:9');
    expect(missing.state).toBe('unavailable');
    expect(missing.reason).toContain('/nonexistent/yolo');
  });

  it(
    'where yolo runs, an uploaded .pt gets its ONNX export, task, classes and image size without a button; it takes exports only',
    { timeout: 90_000 },
    async () => {
      process.env.STANDIN_ONNX = ONNX;
      const s = await server({ EXPORT_WORKER: 'auto', EXPORT_WORKER_YOLO: STANDIN_YOLO });
      const worker = exportWorkerOf(s.t.app.ctx)!;
      await waitFor('probe', async () => worker.state === 'ready', 30_000);
      expect(worker.version).toBe('8.4.190');
      // Ready but not started: nothing runs before the first export job.
      expect(await agentsRepository.listAgents(s.t.app.ctx.db)).toEqual([]);
      const user = await buildUser(s.t.app);
      expect((await s.t.app.inject({ method: 'POST', url: '/v1/models', headers: { cookie: user.cookie }, payload: { meta: { name: 'x' } } })).statusCode).toBe(
        201,
      );
      const id = await uploadPt(s, user.cookie);
      expect((await get(s, `/v1/models/${id}/exports`, user.cookie)).json().data.worker).toMatchObject({ available: true });
      // A training job queued first must not go to the built-in worker.
      const train = await enqueueJob(s.t.app.ctx, { kind: 'train', userId: user.user.id, modelId: id, args: {}, maxAttempts: 1 });
      const done = await waitFor(
        'ONNX export',
        async () =>
          (await get(s, `/v1/models/${id}/exports`, user.cookie))
            .json()
            .data.exports.find((e: { status: string }) => e.status === 'succeeded' || e.status === 'failed'),
        60_000,
        200,
      );
      expect(done).toMatchObject({ format: 'onnx', auto: true, status: 'succeeded', bytes: fs.statSync(ONNX).size });
      expect(worker.state).toBe('running');
      const model = (await get(s, `/v1/models/${id}`, user.cookie)).json().data;
      expect(model).toMatchObject({ task: 'detect', imageSize: 160, origin: 'uploaded' });
      expect(model.names).toHaveLength(3);
      expect(model.exports.onnx).toMatchObject({ status: 'ready' });
      const agents = await agentsRepository.listAgents(s.t.app.ctx.db);
      expect(agents).toHaveLength(1);
      expect(agents[0]).toMatchObject({ builtin: true, ownerUserId: null, ultralyticsVersion: '8.4.190' });
      expect((await agentsRepository.job(s.t.app.ctx.db, train.id))!.status).toBe('queued');
      // Predict works on it at once.
      const img = multipart(
        {},
        { filename: 'img.png', content: fs.readFileSync(path.join(FIXTURES, 'test-images', 'test_0003.png')), contentType: 'image/png' },
      );
      const pred = await s.t.app.inject({ method: 'POST', url: `/v1/predict/${id}`, headers: { ...img.headers, cookie: user.cookie }, payload: img.payload });
      expect(pred.statusCode).toBe(200);
      // Stopped with the server.
      const pid = worker.pid!;
      expect(() => process.kill(pid, 0)).not.toThrow();
      await s.close();
      servers.splice(servers.indexOf(s), 1);
      expect(() => process.kill(pid, 0)).toThrow();
    },
  );
});
