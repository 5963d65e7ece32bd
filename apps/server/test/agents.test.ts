import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, multipart } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { ledgerSums } from '../src/modules/billing/billing.ledger.js';
import { shapes3Dataset, startLiveServer, type LiveServer } from './support/wire.js';
import {
  adminWithSharedToken,
  enableCloud,
  epochsDone,
  hostGpuName,
  yoloChildOf,
  newToken,
  REAL_YOLO,
  setPlanAndWallet,
  startAgent,
  waitFor,
  walletOf,
  type AgentProcess,
} from './support/agents.js';

/**
 * The agent CLI against the real server: a real `sightline-agent` process runs the stand-in `yolo`
 * (apps/agent/test/yolo-standin.mjs) or, with SIGHTLINE_TEST_YOLO set, the real ultralytics CLI.
 * The lease is 3 s so a dead agent's job is handed back within the test.
 */

let s: LiveServer;
let admin: Awaited<ReturnType<typeof adminWithSharedToken>>['admin'];
let sharedToken: string;
const agents: AgentProcess[] = [];
const onnxFixture = path.join(FIXTURES, 'shapes3-detect.onnx');
const baseEnv = { STANDIN_ONNX: onnxFixture, STANDIN_EPOCH_MS: '700' };
// With the real CLI the "rtx-4090" type matches whatever GPU the host has (cloud runs need one).
const GPU_MATCH = REAL_YOLO ? hostGpuName() : null;

beforeAll(async () => {
  s = await startLiveServer({ AGENT_LEASE_SECONDS: '3' });
  const made = await adminWithSharedToken(s.t);
  admin = made.admin;
  sharedToken = made.token.token;
  const gpu = await s.t.app.inject({
    method: 'PUT',
    url: '/v1/admin/gpu-types',
    headers: { cookie: admin.cookie },
    payload: { id: 'rtx-4090', name: 'RTX 4090', match: GPU_MATCH ?? 'RTX 4090', hourlyRateMicro: 3_600_000, imagesPerSecond: 1 },
  });
  expect(gpu.statusCode).toBe(200);
  await enableCloud(s.t);
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});
afterAll(async () => {
  await s?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object) =>
  s.t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

function agent(env: Record<string, string> = {}, token = sharedToken, workDir?: string) {
  const a = startAgent(s.origin, token, { env: { ...baseEnv, ...env }, workDir });
  agents.push(a);
  return a;
}

async function uploadPt(cookie: string) {
  const mp = multipart(
    { model_name: 'shapes3-detect.pt' },
    { filename: 'shapes3-detect.pt', content: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.pt')) },
  );
  const res = await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

const exportsOf = async (cookie: string, modelId: string) => {
  const body = (await api('GET', `/v1/models/${modelId}/exports`, cookie)).json().data as { exports: Array<Record<string, any>>; agentsOnline: number };
  return { data: body.exports, agentsOnline: body.agentsOnline };
};

async function onlineAgent(a: AgentProcess) {
  await waitFor('agent registered', async () => a.output().includes('registered as'), 30_000);
  return a;
}

async function cloudUser(walletMicro = 50_000_000) {
  const user = await buildUser(s.t.app);
  await setPlanAndWallet(s.t, user.user.id, 'pro', walletMicro);
  const ds = await shapes3Dataset(s.t, user.user.id, `shapes-${user.user.username.toLowerCase()}`);
  const project = (await api('POST', '/v1/projects', user.cookie, { name: 'Cloud' })).json().data;
  const model = await api('POST', '/v1/models', user.cookie, {
    meta: { name: 'run' },
    projectId: project.id,
    dataset: { id: ds.id },
    lineage: { architecture: { name: 'yolo11n' } },
  });
  expect(model.statusCode).toBe(201);
  return { user, modelId: model.json().data.id as string, projectId: project.id as string, datasetId: ds.id };
}
describe('sightline-agent against the real server', () => {
  it('registers with GPU, CPU and ultralytics version; shows online; a revoked token stops it', async () => {
    const user = await buildUser(s.t.app);
    const mine = await newToken(s.t, user.cookie, 'my box', false);
    const a = await onlineAgent(agent({}, mine.token));
    const list = (await api('GET', '/v1/agents', user.cookie)).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'my box', shared: false, online: true, gpuType: REAL_YOLO && !GPU_MATCH ? null : 'rtx-4090' });
    if (!REAL_YOLO) {
      expect(list[0].gpu).toEqual({ name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564, count: 1 });
      expect(list[0].ultralyticsVersion).toBe('8.4.190');
    }
    expect(list[0].cpu).toBeTruthy();
    // Users cannot add to the shared pool; admins see every agent.
    expect((await api('POST', '/v1/agents', user.cookie, { name: 'x', shared: true })).statusCode).toBe(403);
    expect((await api('GET', '/v1/agents?scope=all', admin.cookie)).json().data.length).toBeGreaterThanOrEqual(1);
    // Tokens are stored hashed only.
    const rows = await s.t.database.db.execute('SELECT token_hash FROM agents' as never);
    expect(JSON.stringify(rows)).not.toContain(mine.token);
    expect((await api('DELETE', `/v1/agents/${mine.agent.id}`, user.cookie)).statusCode).toBe(200);
    expect(await Promise.race([a.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))])).toBe(0);
    expect(a.output()).toContain('refused');
  });

  it('exports: ONNX becomes the inference file; other formats with options, log, size, download; folders as tar.gz', { timeout: 60_000 }, async () => {
    const user = await buildUser(s.t.app);
    const modelId = await uploadPt(user.cookie);
    expect((await exportsOf(user.cookie, modelId)).agentsOnline).toBe(0);
    // Queued by the upload itself (ADR 0022): with no agent online it waits in the queue.
    expect((await exportsOf(user.cookie, modelId)).data).toMatchObject([{ format: 'onnx', auto: true, status: 'queued' }]);
    await onlineAgent(agent());
    const onnx = await waitFor(
      'ONNX export',
      async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.format === 'onnx' && e.status === 'succeeded'),
      30_000,
    );
    expect(onnx).toMatchObject({ auto: true, bytes: fs.statSync(onnxFixture).size, fileName: 'best.onnx' });
    expect((await exportsOf(user.cookie, modelId)).agentsOnline).toBe(1);
    const model = (await api('GET', `/v1/models/${modelId}`, user.cookie)).json().data;
    expect(model.exports.onnx).toEqual({ bytes: fs.statSync(onnxFixture).size, status: 'ready' });
    const log = (await api('GET', `/v1/agent-jobs/${onnx.jobId}/log`, user.cookie)).json().data.lines.join('');
    expect(log).toContain('export success');
    // Preview / predict work on it at once.
    const img = fs.readFileSync(path.join(FIXTURES, 'test-images', 'test_0003.png'));
    const mp = multipart({}, { filename: 'img.png', content: img, contentType: 'image/png' });
    const pred = await s.t.app.inject({ method: 'POST', url: `/v1/predict/${modelId}`, headers: { ...mp.headers, cookie: user.cookie }, payload: mp.payload });
    expect(pred.statusCode).toBe(200);
    expect(pred.json().images[0].results.length).toBeGreaterThan(0);
    const dl = await s.t.app.inject({ method: 'GET', url: onnx.downloadUrl, headers: { cookie: user.cookie } });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(fs.readFileSync(onnxFixture))).toBe(true);

    const ov = await api('POST', `/v1/models/${modelId}/exports`, user.cookie, { format: 'openvino', options: { imgsz: 320, half: true } });
    expect(ov.statusCode).toBe(201);
    const done = await waitFor(
      'openvino export',
      async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.id === ov.json().data.id && e.status === 'succeeded'),
      30_000,
    );
    expect(done.fileName).toBe('best_openvino_model.tar.gz');
    expect(done.bytes).toBeGreaterThan(1000);
    expect(done.options).toEqual({ imgsz: 320, half: true });
    const ovLog = (await api('GET', `/v1/agent-jobs/${done.jobId}/log`, user.cookie)).json().data.lines.join('');
    expect(ovLog).toContain('input shape (1, 3, 320, 320)');
    const after = (await api('GET', `/v1/models/${modelId}`, user.cookie)).json().data;
    expect(after.exports.openvino.bytes).toBe(done.bytes);
    // Someone else cannot read the log.
    const other = await buildUser(s.t.app);
    expect((await api('GET', `/v1/agent-jobs/${done.jobId}/log`, other.cookie)).statusCode).toBe(404);
  });

  it('an export that exits non-zero fails with its log; retry runs it again', async () => {
    const user = await buildUser(s.t.app);
    // Weights that pass the upload's magic check but are no complete zip: torch.load fails on them.
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(4096, 7)]);
    const mp = multipart({ model_name: 'broken.pt' }, { filename: 'broken.pt', content: broken });
    const modelId = (
      await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: user.cookie }, payload: mp.payload })
    ).json().data.id as string;
    await onlineAgent(agent());
    const req = await api('POST', `/v1/models/${modelId}/exports`, user.cookie, { format: 'torchscript', options: { batch: 1 } });
    expect(req.statusCode).toBe(201);
    const id = req.json().data.id as string;
    const failed = await waitFor(
      'failed export',
      async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.id === id && e.status === 'failed'),
      60_000,
    );
    expect(failed.error).toContain('exited with code 1');
    expect(failed.error).toMatch(/zip archive|central directory/);
    expect(failed.canRetry).toBe(true);
    expect(failed.bytes).toBeNull();
    const log = (await api('GET', `/v1/agent-jobs/${failed.jobId}/log`, user.cookie)).json().data.lines.join('');
    expect(log).toContain('Traceback');
    const retry = await api('POST', `/v1/models/${modelId}/exports/${id}/retry`, user.cookie);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toMatchObject({ status: 'queued', attempts: 2 });
    await waitFor(
      'failed again',
      async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.id === id && e.status === 'failed' && e.jobId !== failed.jobId),
      60_000,
    );
    expect((await api('POST', `/v1/models/${modelId}/exports/${id}/retry`, (await buildUser(s.t.app)).cookie)).statusCode).toBe(404);
  });

  it(
    'an agent killed with kill -9 loses its job when the lease runs out; the restarted agent reports it, the export runs again',
    { timeout: 90_000 },
    async () => {
      const user = await buildUser(s.t.app);
      const modelId = await uploadPt(user.cookie);
      const a = await onlineAgent(agent({ STANDIN_EXPORT_MS: '60000' }));
      // The real CLI needs a slow format to still be running when the agent dies (onnx2tf + int8).
      await api(
        'POST',
        `/v1/models/${modelId}/exports`,
        user.cookie,
        REAL_YOLO ? { format: 'tflite', options: { int8: true } } : { format: 'onnx', options: {} },
      );
      const running = await waitFor('export running', async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.status === 'running'), 30_000);
      await waitFor('yolo started', async () => a.output().includes('yolo export'), 10_000);
      a.child.kill('SIGKILL');
      const killedAt = Date.now();
      const job = await waitFor(
        'lease expiry',
        async () => {
          const rows = (await api('GET', '/v1/admin/agent-jobs', admin.cookie)).json().data as Array<Record<string, any>>;
          return rows.find((j) => j.id === running.jobId && j.status === 'queued');
        },
        15_000,
      );
      expect(Date.now() - killedAt).toBeLessThan(3000 + 2500);
      expect(job.error).toMatch(/stopped responding \(no heartbeat for \d+ s\)/);
      expect(job.attempts).toBe(1);
      await waitFor(
        'export row queued again',
        async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.id === running.id && e.status === 'queued'),
        5000,
      );
      // The agent comes back (same work folder): it reports the job it had, already handed back, and takes it again.
      const again = await onlineAgent(agent({ STANDIN_EXPORT_MS: '100' }, sharedToken, a.workDir));
      const done = await waitFor(
        'export done after requeue',
        async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.id === running.id && e.status === 'succeeded'),
        30_000,
      );
      expect(done.jobId).toBe(running.jobId);
      expect(again.output()).toContain(`job ${running.jobId} was unfinished when the agent last stopped`);
      const log = (await api('GET', `/v1/agent-jobs/${running.jobId}/log`, user.cookie)).json().data.lines.join('');
      expect(log).toContain('queued again (attempt 2 of 3)');
    },
  );

  it('two agents racing for one job: it is claimed once', async () => {
    const user = await buildUser(s.t.app);
    const modelId = await uploadPt(user.cookie);
    const second = await newToken(s.t, admin.cookie, 'gpu-2', true);
    // An agent says what it can run when it registers (ADR 0021): without ultralytics it is offered nothing.
    await fetch(`${s.origin}/v1/agents/register`, {
      method: 'POST',
      headers: { 'x-agent-token': second.token, 'content-type': 'application/json' },
      body: JSON.stringify({ hostname: 'gpu-2', ultralyticsVersion: '8.4.190' }),
    });
    const claimOne = (tok: string) =>
      fetch(`${s.origin}/v1/agents/claim?waitMs=0`, { method: 'POST', headers: { 'x-agent-token': tok } }).then(
        (r) => r.json() as Promise<{ data: { id: string } | null }>,
      );
    for (let round = 0; round < 5; round++) {
      // Nothing else queued (the ONNX export the upload queued by itself, other tests' leftovers): the race is for one job.
      for (let left = (await claimOne(sharedToken)).data; left; left = (await claimOne(sharedToken)).data) {
        await fetch(`${s.origin}/v1/agents/jobs/${left.id}/finish`, {
          method: 'POST',
          headers: { 'x-agent-token': sharedToken, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'failed', error: 'test' }),
        });
      }
      const jobId = (await api('POST', `/v1/models/${modelId}/exports`, user.cookie, { format: 'mnn', options: {} })).json().data.jobId as string;
      const claims = await Promise.all(
        [sharedToken, second.token, sharedToken, second.token].map((tok) =>
          fetch(`${s.origin}/v1/agents/claim?waitMs=0`, { method: 'POST', headers: { 'x-agent-token': tok } }).then(
            (r) => r.json() as Promise<{ data: { id: string } | null }>,
          ),
        ),
      );
      // Each job goes to exactly one claimer (other tests' leftovers may be claimed too, once each).
      const ids = claims.map((c) => c.data?.id).filter(Boolean);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => id === jobId)).toHaveLength(1);
      for (const jid of ids)
        await fetch(`${s.origin}/v1/agents/jobs/${jid}/finish`, {
          method: 'POST',
          headers: { 'x-agent-token': sharedToken, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'failed', error: 'test' }),
        });
    }
  });

  it("claim rules: a private agent takes only its owner's exports; a GPU type must match", async () => {
    const alice = await buildUser(s.t.app);
    const bob = await buildUser(s.t.app);
    const bobsModel = await uploadPt(bob.cookie);
    const alicePrivate = (await newToken(s.t, alice.cookie, 'alice box', false)).token;
    // (An agent without ultralytics is offered nothing: ADR 0021.)
    await fetch(`${s.origin}/v1/agents/register`, {
      method: 'POST',
      headers: { 'x-agent-token': alicePrivate, 'content-type': 'application/json' },
      body: JSON.stringify({ hostname: 'a', ultralyticsVersion: '8.4.190' }),
    });
    const claim = (tok: string) =>
      fetch(`${s.origin}/v1/agents/claim?waitMs=0`, { method: 'POST', headers: { 'x-agent-token': tok } }).then(
        (r) => r.json() as Promise<{ data: { id: string } | null }>,
      );
    const job = (await api('POST', `/v1/models/${bobsModel}/exports`, bob.cookie, { format: 'ncnn', options: {} })).json().data.jobId as string;
    expect((await claim(alicePrivate)).data).toBeNull();
    const alicesModel = await uploadPt(alice.cookie);
    const mine = (await api('POST', `/v1/models/${alicesModel}/exports`, alice.cookie, { format: 'ncnn', options: {} })).json().data.jobId as string;
    // Alice's upload queued its ONNX export first (ADR 0022): her agent takes that one, then hers.
    const autoOnnx = (await claim(alicePrivate)).data?.id;
    expect(autoOnnx).toBe((await exportsOf(alice.cookie, alicesModel)).data.find((e) => e.auto)!.jobId);
    expect((await claim(alicePrivate)).data?.id).toBe(mine);
    // A cloud run for an H100 is not taken by an agent whose GPU is another type.
    const { user, modelId } = await cloudUser();
    await s.t.app.inject({
      method: 'PUT',
      url: '/v1/admin/gpu-types',
      headers: { cookie: admin.cookie },
      payload: { id: 'h100', name: 'H100', match: 'H100', hourlyRateMicro: 7_200_000, imagesPerSecond: 2 },
    });
    const run = (await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'h100', epochs: 1 })).json().data.job.id as string;
    const rtx = (await newToken(s.t, admin.cookie, 'rtx only', true)).token;
    await fetch(`${s.origin}/v1/agents/register`, {
      method: 'POST',
      headers: { 'x-agent-token': rtx, 'content-type': 'application/json' },
      body: JSON.stringify({ hostname: 'h', gpus: [{ name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564 }], ultralyticsVersion: '8.4.190' }),
    });
    // It takes everything it may (Bob's export needs no particular GPU), never the H100 run.
    const got: string[] = [];
    for (let id = (await claim(rtx)).data?.id; id; id = (await claim(rtx)).data?.id) got.push(id);
    expect(got).toContain(job);
    expect(got).not.toContain(run);
    const finish = (tok: string, id: string) =>
      fetch(`${s.origin}/v1/agents/jobs/${id}/finish`, {
        method: 'POST',
        headers: { 'x-agent-token': tok, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'failed', error: 'test' }),
      });
    await finish(alicePrivate, mine);
    await finish(alicePrivate, autoOnnx!);
    for (const id of got) await finish(rtx, id);
    await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie);
    expect((await api('GET', `/v1/models/${modelId}/cloud`, user.cookie)).json().data.job).toMatchObject({ id: run, status: 'cancelled' });
  });

  it('legacy client verbs: POST /v1/models/{id}/export, /get-export, /model-reset', async () => {
    const user = await buildUser(s.t.app);
    const key = (await api('POST', '/v1/api-keys', user.cookie, { name: 'legacy' })).json().data.legacyKey as string;
    const modelId = await uploadPt(user.cookie);
    await onlineAgent(agent());
    const started = await s.t.app.inject({
      method: 'POST',
      url: `/v1/models/${modelId}/export`,
      headers: { 'x-api-key': key },
      payload: { format: 'torchscript' },
    });
    expect(started.statusCode).toBe(200);
    await waitFor(
      'legacy export',
      async () => (await exportsOf(user.cookie, modelId)).data.find((e) => e.format === 'torchscript' && e.status === 'succeeded'),
      30_000,
    );
    const got = await s.t.app.inject({ method: 'POST', url: '/get-export', payload: { apiKey: key, modelId, format: 'torchscript' } });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ format: 'torchscript', status: 'succeeded' });
    expect(got.json().data.url).toMatch(/^http.*\/download$/);
    const reset = await s.t.app.inject({ method: 'POST', url: '/model-reset', headers: { 'x-api-key': key }, payload: { modelId } });
    expect(reset.statusCode).toBe(200);
    const hub = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: { 'x-api-key': key } })).json().data;
    expect(hub.status).not.toBe('trained');
    expect((await s.t.app.inject({ method: 'POST', url: '/get-export', payload: { apiKey: 'ul' + '0'.repeat(40), modelId, format: 'onnx' } })).statusCode).toBe(
      401,
    );
  });
});

describe.skipIf(REAL_YOLO && !GPU_MATCH)('cloud training', () => {
  const runOf = async (cookie: string, modelId: string) => (await api('GET', `/v1/models/${modelId}/cloud`, cookie)).json().data as Record<string, any> | null;

  it('refuses below $5 or below the estimate, and without the plan', async () => {
    const poor = await cloudUser(4_000_000);
    const est = (await api('POST', `/v1/models/${poor.modelId}/cloud/estimate`, poor.user.cookie, { gpuType: 'rtx-4090', epochs: 10 })).json().data;
    expect(est.canStart).toBe(false);
    expect(est.reason).toContain('at least $5.00');
    const start = await api('POST', `/v1/models/${poor.modelId}/cloud/train`, poor.user.cookie, { gpuType: 'rtx-4090', epochs: 10 });
    expect(start.statusCode).toBe(402);
    await setPlanAndWallet(s.t, poor.user.user.id, 'pro', 6_000_000);
    const big = (await api('POST', `/v1/models/${poor.modelId}/cloud/estimate`, poor.user.cookie, { gpuType: 'rtx-4090', epochs: 5000 })).json().data;
    expect(big.reason).toMatch(/estimate is \$[\d.]+ but your wallet holds \$6.00/);
    await setPlanAndWallet(s.t, poor.user.user.id, 'free', 60_000_000);
    expect((await api('POST', `/v1/models/${poor.modelId}/cloud/estimate`, poor.user.cookie, { gpuType: 'rtx-4090', epochs: 1 })).json().data.reason).toContain(
      'Pro',
    );
    expect(await runOf(poor.user.cookie, poor.modelId)).toBeNull();
  });

  it('a run that never started is not charged: the hold goes back in full', async () => {
    const { user, modelId } = await cloudUser();
    const before = await walletOf(s.t, user.user.id);
    await s.t.app.inject({
      method: 'PUT',
      url: '/v1/admin/gpu-types',
      headers: { cookie: admin.cookie },
      payload: { id: 'h100', name: 'H100', match: 'H100', hourlyRateMicro: 7_200_000, imagesPerSecond: 2 },
    });
    const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'h100', epochs: 3 });
    expect(start.statusCode).toBe(201);
    expect(await walletOf(s.t, user.user.id)).toBe(before - start.json().data.holdMicro);
    expect((await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'h100', epochs: 3 })).statusCode).toBe(409);
    const stop = await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie);
    expect(stop.json().data).toMatchObject({ settledMicro: 0, job: { status: 'cancelled' } });
    expect(await walletOf(s.t, user.user.id)).toBe(before);
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ balance: before, held: 0 });
  });

  it('per-plan concurrency: a pro user runs 3 at once, the 4th waits for a free slot', async () => {
    const { user, modelId, projectId, datasetId } = await cloudUser(200_000_000);
    const more: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await api('POST', '/v1/models', user.cookie, {
        meta: { name: `more ${i}` },
        projectId,
        dataset: { id: datasetId },
        lineage: { architecture: { name: 'yolo11n' } },
      });
      more.push(m.json().data.id as string);
    }
    const ids: string[] = [];
    for (const id of [modelId, ...more])
      ids.push((await api('POST', `/v1/models/${id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 2 })).json().data.job.id as string);
    const token = (await newToken(s.t, admin.cookie, 'gpu-race', true)).token;
    const wire = (p: string, body?: object) =>
      fetch(`${s.origin}${p}`, {
        method: 'POST',
        headers: { 'x-agent-token': token, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }).then((r) => r.json() as Promise<{ data: any }>);
    await wire('/v1/agents/register', { hostname: 'h', gpus: [{ name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564 }], ultralyticsVersion: '8.4.190' });
    // The agent takes all it may (other tests' leftover exports too): only 3 of this user's runs.
    const claimed: string[] = [];
    for (let id = (await wire('/v1/agents/claim?waitMs=0')).data?.id; id; id = (await wire('/v1/agents/claim?waitMs=0')).data?.id) claimed.push(id);
    const running = claimed.filter((id) => ids.includes(id));
    expect(running).toHaveLength(3);
    await wire(`/v1/agents/jobs/${running[0]}/finish`, { status: 'failed', error: 'test' });
    const fourth = ids.find((id) => !running.includes(id));
    expect((await wire('/v1/agents/claim?waitMs=0')).data?.id).toBe(fourth);
    for (const id of [...claimed.filter((c) => c !== running[0]), fourth]) await wire(`/v1/agents/jobs/${id}/finish`, { status: 'failed', error: 'test' });
  });

  it('a 10-epoch run stopped from the web after 4 epochs: child signalled, cancelled, charged exactly 4 epochs', { timeout: 90_000 }, async () => {
    const { user, modelId } = await cloudUser();
    const before = await walletOf(s.t, user.user.id);
    const a = await onlineAgent(agent({ STANDIN_EPOCH_MS: '1500' }));
    const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 10 });
    expect(start.statusCode).toBe(201);
    const price = start.json().data.pricePerEpochMicro as number;
    expect(start.json().data.holdMicro).toBe(price * 10);
    await waitFor('4 epochs', async () => (await epochsDone(s.t, modelId)) >= 4, 60_000, 50);
    const stop = await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie);
    expect(stop.statusCode).toBe(200);
    const frozen = stop.json().data.epochsSettled as number;
    // Epochs take 1.5 s with the stand-in, so the stop lands in epoch 5; the real CLI may be faster.
    const charged = REAL_YOLO ? frozen : 4;
    expect(frozen).toBe(charged);
    const run = await waitFor(
      'cancelled',
      async () => ((await runOf(user.cookie, modelId))?.job.status === 'cancelled' ? runOf(user.cookie, modelId) : null),
      60_000,
    );
    expect(a.output()).toContain('stop requested by the hub, signalling yolo');
    // Epochs that finished after the stop are not charged.
    expect(run!.epochsSettled).toBe(charged);
    expect(run!.settledMicro).toBe(charged * price);
    expect(await walletOf(s.t, user.user.id)).toBe(before - charged * price);
    // The ledger agrees: one hold, one charge per epoch, the rest released; cached totals equal the entries.
    const sums = await ledgerSums(s.t.app.ctx, user.user.id);
    expect(sums).toMatchObject({ balance: before - charged * price, held: 0 });
  });

  it(
    'a run killed mid-epoch fails with its last log lines; settled epochs stay charged, the rest is released; a finished run queues its ONNX export',
    { timeout: 120_000 },
    async () => {
      const { user, modelId } = await cloudUser();
      const before = await walletOf(s.t, user.user.id);
      const a = await onlineAgent(agent({ STANDIN_EPOCH_MS: '1000' }));
      const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 10 });
      const price = start.json().data.pricePerEpochMicro as number;
      await waitFor('2 epochs charged', async () => ((await runOf(user.cookie, modelId))?.epochsSettled ?? 0) >= 2, 60_000, 50);
      process.kill((await waitFor('yolo child', async () => yoloChildOf(a)))!, 'SIGKILL');
      const run = await waitFor(
        'failed',
        async () => ((await runOf(user.cookie, modelId))?.job.status === 'failed' ? runOf(user.cookie, modelId) : null),
        30_000,
      );
      expect(run!.job.error).toContain('killed by SIGKILL');
      expect(run!.job.error).toMatch(/\d+\/10/);
      const settledEpochs = run!.epochsSettled as number;
      expect(settledEpochs).toBeGreaterThanOrEqual(2);
      expect(settledEpochs).toBeLessThan(10);
      expect(run!.settledMicro).toBe(settledEpochs * price);
      expect(await walletOf(s.t, user.user.id)).toBe(before - settledEpochs * price);

      // A run that completes: weights arrive over the Platform protocol, then the ONNX export queues itself.
      const second = await cloudUser();
      await api('POST', `/v1/models/${second.modelId}/cloud/train`, second.user.cookie, { gpuType: 'rtx-4090', epochs: 2 });
      await waitFor('succeeded', async () => (await runOf(second.user.cookie, second.modelId))?.job.status === 'succeeded', 60_000);
      const final = await runOf(second.user.cookie, second.modelId);
      expect(final!.epochsSettled).toBe(2);
      await waitFor(
        'auto onnx after training',
        async () => (await exportsOf(second.user.cookie, second.modelId)).data.find((e) => e.format === 'onnx' && e.status === 'succeeded'),
        30_000,
      );
    },
  );
});
