import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelStatus, type Model } from '@sightline/contracts';
import { buildUser } from './support/factories.js';
import { ledgerSums } from '../src/modules/billing/billing.ledger.js';
import { sweep } from '../src/modules/agents/agents.service.js';
import { markStaleRuns } from '../src/modules/training/training.service.js';
import { send, shapes3Dataset, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';
import {
  adminWithSharedToken,
  enableCloud,
  epochsDone,
  newToken,
  REAL_YOLO,
  setPlanAndWallet,
  startAgent,
  waitFor,
  walletOf,
  yoloChildOf,
  type AgentProcess,
} from './support/agents.js';

/**
 * The run lifecycle of ADR 0020 over real HTTP: cloud runs (the real agent CLI running the stand-in
 * `yolo`, the tool for these faults: stop mid-run, an agent killed) and client runs of both protocols
 * that just stop calling. Windows are the spec's (15 min before the first epoch, 5 min after); the
 * test clock jumps over them. The agent lease is 3 s so a killed agent's run ends within the test.
 */

let s: LiveServer;
let admin: Awaited<ReturnType<typeof adminWithSharedToken>>['admin'];
let sharedToken: string;
const agents: AgentProcess[] = [];

/** A live server with an admin, the shared agent token, the "rtx-4090" GPU type and cloud training on. */
async function setUp(leaseSeconds: string) {
  s = await startLiveServer({ AGENT_LEASE_SECONDS: leaseSeconds });
  const made = await adminWithSharedToken(s.t);
  admin = made.admin;
  sharedToken = made.token.token;
  const gpu = await s.t.app.inject({
    method: 'PUT',
    url: '/v1/admin/gpu-types',
    headers: { cookie: admin.cookie },
    payload: { id: 'rtx-4090', name: 'RTX 4090', match: 'RTX 4090', hourlyRateMicro: 3_600_000, imagesPerSecond: 1 },
  });
  expect(gpu.statusCode).toBe(200);
  await enableCloud(s.t);
}

beforeAll(() => setUp('3'), 300_000);
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});
afterAll(async () => {
  await s?.close();
});

const api = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  s.t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const modelOf = async (cookie: string, id: string) => (await api('GET', `/v1/models/${id}`, cookie)).json().data as Model;
const statusOf = (m: Model) => modelStatus(m.dates, s.t.clock.now(), m.training);
const cloudOf = async (cookie: string, id: string) => (await api('GET', `/v1/models/${id}/cloud`, cookie)).json().data as Record<string, any> | null;

async function cloudUser(walletMicro = 50_000_000) {
  const user = await buildUser(s.t.app);
  await setPlanAndWallet(s.t, user.user.id, 'pro', walletMicro);
  const ds = await shapes3Dataset(s.t, user.user.id, `shapes-${user.user.username.toLowerCase()}`);
  const project = (await api('POST', '/v1/projects', user.cookie, { name: 'Lifecycle' })).json().data;
  const model = await api('POST', '/v1/models', user.cookie, {
    meta: { name: 'run' },
    projectId: project.id,
    dataset: { id: ds.id },
    lineage: { architecture: { name: 'yolo11n' } },
  });
  expect(model.statusCode).toBe(201);
  return { user, modelId: model.json().data.id as string, project: project as { id: string; slug: string }, datasetSlug: ds.slug };
}

function agent(env: Record<string, string> = {}) {
  const a = startAgent(s.origin, sharedToken, { env: { STANDIN_EPOCH_MS: '1000', ...env } });
  agents.push(a);
  return a;
}
const online = (a: AgentProcess) => waitFor('agent registered', async () => a.output().includes('registered as'), 60_000);

describe.skipIf(REAL_YOLO)('cloud runs end when they end (stand-in yolo)', () => {
  it('a cloud run stopped from the page is Stopped at once, its hold goes back at once, and the model trains again', { timeout: 180_000 }, async () => {
    const { user, modelId } = await cloudUser();
    const before = await walletOf(s.t, user.user.id);
    await online(agent());
    const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 10 });
    expect(start.statusCode).toBe(201);
    const price = start.json().data.pricePerEpochMicro as number;
    await waitFor('2 epochs', async () => (await epochsDone(s.t, modelId)) >= 2, 90_000, 50);
    let m = await modelOf(user.cookie, modelId);
    // A live run is Training everywhere: the HUB status field too (it said "new").
    expect(m.status).toBe('training');
    expect(statusOf(m)).toBe('Training');

    const stop = await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie);
    expect(stop.statusCode).toBe(200);
    const charged = stop.json().data.epochsSettled as number;
    m = await modelOf(user.cookie, modelId);
    expect(m.training).toMatchObject({ outcome: 'cancelled', error: 'Stopped from the model page', cancelRequested: true });
    expect(m.dates.train.end).not.toBeNull();
    expect(statusOf(m)).toBe('Stopped');
    // The rest of the hold is back before the agent even heard of the stop.
    expect(await walletOf(s.t, user.user.id)).toBe(before - charged * price);
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ held: 0 });

    // Training again: accepted at once (it answered 409 "already been trained"), a fresh run from epoch 0.
    const again = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 2 });
    expect(again.statusCode).toBe(201);
    m = await modelOf(user.cookie, modelId);
    expect(m.training?.outcome).toBe('queued');
    expect(m.metrics.epochs).toBe(0);
    expect(statusOf(m)).toBe('New');
    await waitFor('the new run completes', async () => (await cloudOf(user.cookie, modelId))?.job.status === 'succeeded', 120_000);
    m = await modelOf(user.cookie, modelId);
    expect(m.training).toMatchObject({ outcome: 'completed', error: null, cancelRequested: false });
    expect(statusOf(m)).toBe('Trained');
    expect(m.metrics.epochs).toBe(2);
    // The first run's job ended cancelled without touching the second run.
    expect((await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 2 })).statusCode).toBe(409);
    expect(await walletOf(s.t, user.user.id)).toBe(before - charged * price - 2 * (again.json().data.pricePerEpochMicro as number));
  });

  it('a run whose agent is killed fails within the lease with the reason, its hold goes back, and the model trains again', { timeout: 180_000 }, async () => {
    const { user, modelId } = await cloudUser();
    const before = await walletOf(s.t, user.user.id);
    const a = agent();
    await online(a);
    const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 10 });
    const price = start.json().data.pricePerEpochMicro as number;
    await waitFor('1 epoch charged', async () => ((await cloudOf(user.cookie, modelId))?.epochsSettled ?? 0) >= 1, 90_000, 50);
    // The host dies: the yolo child and the agent, no goodbye.
    process.kill((await waitFor('yolo child', async () => yoloChildOf(a)))!, 'SIGKILL');
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    const failed = await waitFor(
      'Failed',
      async () => {
        // No agent claims work here, so nothing else runs the lease sweep.
        await sweep(s.t.app.ctx, true);
        const m = await modelOf(user.cookie, modelId);
        return m.training?.outcome === 'failed' ? m : null;
      },
      30_000,
      250,
    );
    expect(Date.now() - killedAt).toBeLessThan(20_000);
    expect(failed.training?.error).toMatch(/stopped responding/);
    expect(((await api('GET', '/v1/training/runs', user.cookie)).json().data as Array<Record<string, unknown>>).find((r) => r.id === modelId)).toMatchObject({
      outcome: 'failed',
    });
    expect(failed.dates.train.end).not.toBeNull();
    expect(statusOf(failed)).toBe('Failed');
    const settled = (await cloudOf(user.cookie, modelId))!.epochsSettled as number;
    expect(await walletOf(s.t, user.user.id)).toBe(before - settled * price);
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ held: 0 });

    const again = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 2 });
    expect(again.statusCode).toBe(201);
    expect((await modelOf(user.cookie, modelId)).training).toMatchObject({ outcome: 'queued', error: null });
    // Nobody runs it here: stopped while queued, nothing charged.
    expect((await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie)).json().data.job.status).toBe('cancelled');
    expect(statusOf(await modelOf(user.cookie, modelId))).toBe('Stopped');
    expect(await walletOf(s.t, user.user.id)).toBe(before - settled * price);
  });
});

describe('client runs that just stop calling time out within the window, and a late event revives them', () => {
  it('legacy (HUB) client: Timeout 6 min after its last epoch (not 60), Training again on a late event, resumable', async () => {
    const alice = await userWithKey(s.t);
    const ds = await shapes3Dataset(s.t, alice.user.id, `hub-${alice.user.username.toLowerCase()}`);
    const made = await api('POST', '/v1/models', alice.cookie, {
      dataset: { id: ds.id },
      lineage: { architecture: { name: 'yolo11n' } },
      config: { epochs: 3 },
    });
    const id = made.json().data.id as string;
    const hub = (path: string, body: object) =>
      send(`${s.origin}${path}`, { method: 'POST', headers: { 'x-api-key': alice.legacyKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const epoch = (e: number) =>
      hub(`/v1/models/${id}`, {
        type: 'metrics',
        metrics: { [e]: JSON.stringify({ 'metrics/mAP50(B)': 0.1, 'metrics/mAP50-95(B)': 0.05, 'val/box_loss': 1 }) },
      });
    const agentId = (await hub(`/v1/agent/heartbeat/models/${id}`, { agent: 'python', agentId: null })).json().data.agentId as string;
    expect((await epoch(0)).status).toBe(200);
    let m = await modelOf(alice.cookie, id);
    expect(m.status).toBe('training');
    expect(statusOf(m)).toBe('Training');

    // Killed: nothing more. One HUB heartbeat interval (300 s) plus a minute of grace later, it is Timeout.
    s.t.clock.advance(4 * 60_000);
    expect(await markStaleRuns(s.t.app.ctx)).not.toContain(id);
    s.t.clock.advance(2 * 60_000 + 1000);
    expect(await markStaleRuns(s.t.app.ctx)).toContain(id);
    m = await modelOf(alice.cookie, id);
    expect(m.training).toMatchObject({ outcome: 'timeout' });
    expect(m.training?.error).toMatch(/No word from the training run for 6 min after epoch 1/);
    expect(statusOf(m)).toBe('Timeout');
    expect(m.metrics.epochs).toBe(1);

    // The same process was only cut off: its next report makes it Training again.
    expect((await hub(`/v1/agent/heartbeat/models/${id}`, { agent: 'python', agentId })).status).toBe(200);
    m = await modelOf(alice.cookie, id);
    expect(m.training).toMatchObject({ outcome: 'running', stale: null, error: null });
    expect(statusOf(m)).toBe('Training');

    // Timed out again, then `yolo train resume`: a new process (no agentId) resumes the model.
    s.t.clock.advance(7 * 60_000);
    expect(await markStaleRuns(s.t.app.ctx)).toContain(id);
    expect((await hub(`/v1/agent/heartbeat/models/${id}`, { agent: 'python', agentId: null })).status).toBe(200);
    expect((await epoch(1)).status).toBe(200);
    m = await modelOf(alice.cookie, id);
    expect(m.training?.outcome).toBe('running');
    expect(m.metrics.epochs).toBe(2);
  });

  it('current (Platform) client: Training while it reports (status and outcome), Timeout within the window, back on a late event; cloud training again after a timeout', async () => {
    const { user, datasetSlug } = await cloudUser();
    const keyRes = await api('POST', '/v1/api-keys', user.cookie, { name: 'trainer' });
    const key = keyRes.json().data.key as string;
    const webhook = (body: object) =>
      send(`${s.origin}/api/webhooks/training/metrics`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const data = `ul://${user.user.username}/datasets/${datasetSlug}`;
    const started = await webhook({
      event: 'training_started',
      project: `${user.user.username}/Client runs`,
      name: 'killed',
      data: { trainArgs: { task: 'detect', model: 'yolo11n.pt', data, epochs: '5' }, epochs: 5 },
    });
    expect(started.status).toBe(200);
    const { modelId } = started.json() as { modelId: string };

    // Before the first epoch the start window (15 min) applies.
    s.t.clock.advance(10 * 60_000);
    expect(await markStaleRuns(s.t.app.ctx)).not.toContain(modelId);
    expect(
      (await webhook({ event: 'epoch_end', modelId, data: { epoch: 0, metrics: { 'val/box_loss': 1, 'metrics/mAP50(B)': 0.1, 'metrics/mAP50-95(B)': 0.05 } } }))
        .status,
    ).toBe(200);
    let m = await modelOf(user.cookie, modelId);
    // Live: the status field and the run say so (the status field said "new" during a Platform run).
    expect(m.status).toBe('training');
    expect(m.training?.outcome).toBe('running');
    expect(statusOf(m)).toBe('Training');

    // Killed after epoch 1: Timeout past the 5-minute window, not after 60.
    s.t.clock.advance(5 * 60_000 + 1000);
    expect(await markStaleRuns(s.t.app.ctx)).toContain(modelId);
    m = await modelOf(user.cookie, modelId);
    expect(m.training).toMatchObject({ outcome: 'timeout' });
    expect(m.training?.stale).not.toBeNull();
    expect(statusOf(m)).toBe('Timeout');
    // Active jobs lists it with the same state and the reason.
    const runs = (await api('GET', '/v1/training/runs', user.cookie)).json().data as Array<Record<string, unknown>>;
    expect(runs.find((r) => r.id === modelId)).toMatchObject({
      outcome: 'timeout',
      error: 'No word from the training run for 5 min after epoch 1',
      epochsDone: 1,
      epochsTotal: 5,
    });

    // Any late event counts (the Platform client sends no heartbeats).
    expect((await webhook({ event: 'console_output', modelId, data: { chunkId: 1, content: 'still here\n' } })).status).toBe(200);
    m = await modelOf(user.cookie, modelId);
    expect(m.training).toMatchObject({ outcome: 'running', stale: null });
    expect(statusOf(m)).toBe('Training');

    // Timed out for good; the model trains again in the cloud (it answered 409 before).
    s.t.clock.advance(6 * 60_000);
    expect(await markStaleRuns(s.t.app.ctx)).toContain(modelId);
    const again = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 2 });
    expect(again.statusCode).toBe(201);
    m = await modelOf(user.cookie, modelId);
    expect(m.training?.outcome).toBe('queued');
    expect(m.metrics.epochs).toBe(0);
    expect((await api('POST', `/v1/models/${modelId}/cloud/stop`, user.cookie)).statusCode).toBe(200);
  });
});

describe('cloud billing follows the run state', () => {
  // The agent stays alive through the jumps of the test clock: a lease of an hour, on a server of its own.
  let short: LiveServer;
  beforeAll(async () => {
    short = s;
    await setUp('3600');
  }, 300_000);
  afterAll(async () => {
    await s.close();
    s = short;
  });

  it('a cloud run whose yolo goes silent: Timeout gives the hold back, a late event holds again and charging goes on', { timeout: 60_000 }, async () => {
    const { user, modelId, project } = await cloudUser();
    const before = await walletOf(s.t, user.user.id);
    const start = await api('POST', `/v1/models/${modelId}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 5 });
    expect(start.statusCode).toBe(201);
    const { pricePerEpochMicro: price, holdMicro: held, job } = start.json().data as { pricePerEpochMicro: number; holdMicro: number; job: { id: string } };
    // The agent's side spoken by hand (the stand-in cannot be made silent yet alive).
    const token = (await newToken(s.t, admin.cookie, `gpu-${job.id.slice(0, 6)}`, true)).token;
    const wire = (path: string, body?: object) =>
      fetch(`${s.origin}${path}`, {
        method: 'POST',
        headers: { 'x-agent-token': token, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }).then((r) => r.json() as Promise<{ data: any }>);
    await wire('/v1/agents/register', {
      hostname: 'h',
      gpus: [{ name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564 }],
      ultralyticsVersion: '8.4.41',
      platformProtocol: true,
    });
    let claimed: any = null;
    for (let c = (await wire('/v1/agents/claim?waitMs=0')).data; c; c = (await wire('/v1/agents/claim?waitMs=0')).data) {
      if (c.id === job.id) claimed = c;
      else await wire(`/v1/agents/jobs/${c.id}/finish`, { status: 'failed', error: 'not this test' });
      if (claimed) break;
    }
    expect(claimed).not.toBeNull();
    await wire(`/v1/agents/jobs/${job.id}/start`);
    const runKey = claimed.env.ULTRALYTICS_API_KEY as string;
    const webhook = (body: object) =>
      send(`${s.origin}/api/webhooks/training/metrics`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${runKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const m0 = (await modelOf(user.cookie, modelId)).slug;
    expect(
      (await webhook({ event: 'training_started', project: `${user.user.username}/${project.slug}`, name: m0, data: { trainArgs: {}, epochs: 5 } })).json()
        .modelId,
    ).toBe(modelId);
    const epoch = (e: number) =>
      webhook({ event: 'epoch_end', modelId, data: { epoch: e, metrics: { 'val/box_loss': 1, 'metrics/mAP50(B)': 0.1, 'metrics/mAP50-95(B)': 0.05 } } });
    expect((await epoch(0)).status).toBe(200);
    await wire('/v1/agents/heartbeat', { jobs: [job.id] });
    expect(await walletOf(s.t, user.user.id)).toBe(before - held);
    expect((await cloudOf(user.cookie, modelId))!.epochsSettled).toBe(1);

    // yolo hangs; the agent is alive (it heartbeats the job), but the run says nothing for 5 minutes.
    s.t.clock.advance(5 * 60_000 + 1000);
    await wire('/v1/agents/heartbeat', { jobs: [job.id] });
    expect(await markStaleRuns(s.t.app.ctx)).toContain(modelId);
    expect(statusOf(await modelOf(user.cookie, modelId))).toBe('Timeout');
    // Only the settled epoch stays charged; nothing is held for a silent run.
    expect(await walletOf(s.t, user.user.id)).toBe(before - price);
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ held: 0 });

    // It wakes up: Training again, and its billing with it.
    expect((await epoch(1)).status).toBe(200);
    expect(statusOf(await modelOf(user.cookie, modelId))).toBe('Training');
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ held: held - price });
    await wire('/v1/agents/heartbeat', { jobs: [job.id] });
    expect((await cloudOf(user.cookie, modelId))!.epochsSettled).toBe(2);
    expect(await walletOf(s.t, user.user.id)).toBe(before - held);

    // It ends: the rest goes back, two epochs charged.
    expect((await webhook({ event: 'training_complete', modelId, data: { results: { metrics: {} } } })).status).toBe(200);
    await wire(`/v1/agents/jobs/${job.id}/finish`, { status: 'succeeded', exitCode: 0 });
    expect(await walletOf(s.t, user.user.id)).toBe(before - 2 * price);
    expect(await ledgerSums(s.t.app.ctx, user.user.id)).toMatchObject({ held: 0 });
    expect(statusOf(await modelOf(user.cookie, modelId))).toBe('Trained');
  });
});
