import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAIN_FAMILIES, TRAIN_SIZES, trainDialogBody, type Dataset, type Model, type TrainDialogChoice } from '@sightline/contracts';
import { datasets, modelFiles } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { adminWithSharedToken, enableCloud, newToken, setPlanAndWallet } from './support/agents.js';

/**
 * Cloud training builds its `yolo train` command from what the web train dialog stores (ADR 0021):
 * every model here is created with the dialog's own body (contracts trainDialogBody, the function
 * the dialog calls), started in the cloud, and claimed by an agent over the wire protocol; the test
 * reads the words the agent would run. The real CLI runs these in the client suite
 * (test-clients/cloud-training.test.ts). And agents get only the jobs they can run: an 8.3.166 agent
 * (no Platform protocol, so no `ul://` data) never gets a training run, and the API says why.
 */

let t: TestApp;
let admin: Awaited<ReturnType<typeof adminWithSharedToken>>['admin'];
let agentToken: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const wire = async (token: string, url: string, payload: object = {}) => {
  const res = await t.app.inject({ method: 'POST', url, headers: { 'x-agent-token': token }, payload });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
};
const GPU_HOST = { hostname: 'gpu-host', gpus: [{ name: 'NVIDIA GeForce RTX 4090', memoryMb: 24564 }], cpu: 'AMD EPYC', cpuCount: 16 };

beforeAll(async () => {
  t = await createTestApp();
  const made = await adminWithSharedToken(t);
  admin = made.admin;
  agentToken = made.token.token;
  expect(
    (
      await api('PUT', '/v1/admin/gpu-types', admin.cookie, {
        id: 'rtx-4090',
        name: 'RTX 4090',
        match: 'RTX 4090',
        hourlyRateMicro: 3_600_000,
        imagesPerSecond: 100,
      })
    ).statusCode,
  ).toBe(200);
  await enableCloud(t);
  // The composite platform client: 8.4.41 by number, the Platform protocol by its probe.
  await wire(agentToken, '/v1/agents/register', { ...GPU_HOST, ultralyticsVersion: '8.4.41', platformProtocol: true });
});
afterAll(async () => {
  await t?.close();
});

async function readyDataset(userId: string, task: string, slug: string) {
  const id = newId();
  const now = t.clock.now();
  await t.database.db.insert(datasets).values({
    id,
    userId,
    slug,
    name: slug,
    task,
    status: 'Ready',
    storageKey: `users/${userId}/datasets/${id}/x.zip`,
    filename: 'x.zip',
    bytes: 1,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
    processedAt: now,
  });
  return { id, task } as Pick<Dataset, 'id' | 'task'>;
}

async function proUser() {
  const user = await buildUser(t.app);
  await setPlanAndWallet(t, user.user.id, 'pro', 500_000_000);
  const project = (await api('POST', '/v1/projects', user.cookie, { name: 'Cloud' })).json().data as { id: string; slug: string };
  return { ...user, project };
}

const choice = (over: Partial<TrainDialogChoice> = {}): TrainDialogChoice => ({
  name: 'run',
  source: 'architecture',
  family: 'yolo11',
  size: 'n',
  pretrained: true,
  epochs: 3,
  imageSize: 64,
  batchSize: 8,
  patience: 100,
  cache: 'off',
  device: '',
  time: '',
  advanced: [],
  ...over,
});

/** Creates the model with the dialog's body, starts it in the cloud, and returns the words the agent gets. */
async function cloudWords(
  user: Awaited<ReturnType<typeof proUser>>,
  dataset: Pick<Dataset, 'id' | 'task'>,
  form: TrainDialogChoice,
  parent: Pick<Model, 'id' | 'meta' | 'lineage'> | null = null,
) {
  const created = await api('POST', '/v1/models', user.cookie, trainDialogBody(form, { projectId: user.project.id, dataset, parent }));
  expect(created.statusCode, created.body).toBe(201);
  const model = created.json().data as Model;
  const start = await api('POST', `/v1/models/${model.id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 });
  expect(start.statusCode, start.body).toBe(201);
  const job = await wire(agentToken, '/v1/agents/claim?waitMs=0');
  expect(job?.kind).toBe('train');
  await wire(agentToken, `/v1/agents/jobs/${job.id}/finish`, { status: 'failed', error: 'not run in this test' });
  return { model, words: job.args as string[] };
}

const SUFFIX: Record<string, string> = { detect: '', segment: '-seg', classify: '-cls', pose: '-pose' };

describe('the cloud command built from the train dialog (ADR 0021)', () => {
  // Every family × task × pretrained through the API, the sizes taking turns (each of them appears);
  // the client suite checks every family × size × task × pretrained against the real CLI's parser.
  it('every family and task the dialog offers, pretrained on and off: the yaml from scratch, the .pt when pretrained', { timeout: 120_000 }, async () => {
    const user = await proUser();
    const sizes = new Set<string>();
    let checked = 0;
    for (const task of Object.keys(SUFFIX)) {
      const dataset = await readyDataset(user.user.id, task, `shapes-${task}`);
      for (const family of TRAIN_FAMILIES) {
        for (const pretrained of [true, false]) {
          const size = TRAIN_SIZES[checked % TRAIN_SIZES.length]!;
          sizes.add(size);
          const { words } = await cloudWords(user, dataset, choice({ family, size, pretrained, name: `${family}${size}-${task}-${pretrained}` }));
          const arch = `${family}${size}${SUFFIX[task]}`;
          expect(words[0]).toBe('train');
          expect(words.filter((w) => w.startsWith('model='))).toEqual([`model=${arch}${pretrained ? '.pt' : '.yaml'}`]);
          expect(words).toContain(`data=ul://${user.user.username}/datasets/shapes-${task}`);
          checked++;
        }
      }
    }
    expect(checked).toBe(4 * TRAIN_FAMILIES.length * 2);
    expect(sizes.size).toBe(TRAIN_SIZES.length);
  });

  it('the dialog settings travel: epochs of the run, imgsz, batch, patience, cache, time; advanced arguments in CLI spelling, never overriding the dialog', async () => {
    const user = await proUser();
    const dataset = await readyDataset(user.user.id, 'detect', 'shapes');
    const { model, words } = await cloudWords(
      user,
      dataset,
      choice({
        imageSize: 96,
        batchSize: 4,
        patience: 7,
        cache: 'ram',
        time: 0.5,
        advanced: [
          { key: 'lr0', value: '0.02' },
          { key: 'amp', value: 'false' },
          { key: 'optimizer', value: 'SGD' },
        ],
      }),
    );
    // (The run's settings are stored as JSON, so their order is the database's.)
    expect(words[0]).toBe('train');
    expect(words.slice(1).sort()).toEqual(
      [
        'lr0=0.02',
        'amp=False',
        'optimizer=SGD',
        'model=yolo11n.pt',
        `data=ul://${user.user.username}/datasets/shapes`,
        'epochs=1',
        'time=0.5',
        'imgsz=96',
        'batch=4',
        'patience=7',
        'cache=ram',
        `project=${user.user.username}/${user.project.slug}`,
        `name=${model.slug}`,
      ].sort(),
    );
  });

  it('train from one of my models: the parent\u2019s weights by ul://; a parent without weights is refused', async () => {
    const user = await proUser();
    const dataset = await readyDataset(user.user.id, 'segment', 'cells');
    const parent = (await cloudWords(user, dataset, choice({ name: 'first', size: 's' }))).model;
    // Without weights it cannot be a starting point.
    const early = await api(
      'POST',
      '/v1/models',
      user.cookie,
      trainDialogBody(choice({ name: 'second', source: 'parent' }), { projectId: user.project.id, dataset, parent }),
    );
    const refused = await api('POST', `/v1/models/${early.json().data.id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('has no trained weights yet');
    await t.database.db
      .insert(modelFiles)
      .values({ modelId: parent.id, kind: 'best', name: 'best.pt', blobKey: `users/${user.user.id}/models/${parent.id}/best.pt`, bytes: 10 });
    const { words, model } = await cloudWords(user, dataset, choice({ name: 'third', source: 'parent' }), parent);
    expect(model.lineage.parent).toMatchObject({ id: parent.id, name: 'first' });
    expect(words).toContain(`model=ul://${user.user.username}/${user.project.slug}/${parent.slug}`);
  });

  it('a semantic-segment dataset is refused with a clear 400, in the estimate and at the start, never sent as detect', async () => {
    const user = await proUser();
    const dataset = await readyDataset(user.user.id, 'semantic-segment', 'roads');
    const created = await api('POST', '/v1/models', user.cookie, trainDialogBody(choice(), { projectId: user.project.id, dataset, parent: null }));
    const id = created.json().data.id as string;
    const estimate = (await api('POST', `/v1/models/${id}/cloud/estimate`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 })).json().data;
    expect(estimate).toMatchObject({ canStart: false, reason: expect.stringContaining('ultralytics cannot train semantic-segment models') });
    const start = await api('POST', `/v1/models/${id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 });
    expect(start.statusCode).toBe(400);
    expect(start.json().error).toMatchObject({
      code: 'error/task-not-trainable',
      message: expect.stringContaining('it trains detect, segment, classify, pose, obb'),
    });
    expect((await api('GET', `/v1/models/${id}/cloud`, user.cookie)).json().data).toBeNull();
    // An architecture of another task than the dataset's is refused too (yolo11n-cls on detect data).
    const detect = await readyDataset(user.user.id, 'detect', 'boxes');
    const mismatch = await api('POST', '/v1/models', user.cookie, {
      ...trainDialogBody(choice({ name: 'mismatch' }), { projectId: user.project.id, dataset: detect, parent: null }),
      lineage: { architecture: { id: 'yolo11n-cls', name: 'yolo11n-cls.yaml' } },
    });
    const bad = await api('POST', `/v1/models/${mismatch.json().data.id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('yolo11n-cls.yaml is a classify model but the dataset is a detect dataset');
  });
});

describe('agents get only the jobs they can run (ADR 0021)', () => {
  /**
   * The next training run this agent is offered, or null. The ONNX exports the server queues by
   * itself for weights the tests above stored (ADR 0022) run on any agent with ultralytics: they are
   * claimed and ended on the way.
   */
  const claimRun = async (token: string) => {
    for (;;) {
      const job = await wire(token, '/v1/agents/claim?waitMs=0');
      if (!job || job.kind !== 'export') return job;
      await wire(token, `/v1/agents/jobs/${job.id}/finish`, { status: 'failed', error: 'not run in this test' });
    }
  };

  it('an agent reporting ultralytics 8.3.166 is never handed a ul:// training run, runs exports, and the API shows why', async () => {
    const old = (await newToken(t, admin.cookie, 'old-client', true)).token;
    await wire(old, '/v1/agents/register', { ...GPU_HOST, hostname: 'old-host', ultralyticsVersion: '8.3.166' });
    const user = await proUser();
    const dataset = await readyDataset(user.user.id, 'detect', 'shapes');
    const model = (await api('POST', '/v1/models', user.cookie, trainDialogBody(choice(), { projectId: user.project.id, dataset, parent: null }))).json()
      .data as Model;
    expect((await api('POST', `/v1/models/${model.id}/cloud/train`, user.cookie, { gpuType: 'rtx-4090', epochs: 1 })).statusCode).toBe(201);
    // The same GPU type, online, asking: nothing for it.
    expect(await claimRun(old)).toBeNull();
    const pool = (await api('GET', '/v1/agents?scope=all', admin.cookie)).json().data as Array<Record<string, any>>;
    const shown = pool.find((a) => a.name === 'old-client')!;
    expect(shown).toMatchObject({
      online: true,
      ultralyticsVersion: '8.3.166',
      gpuType: 'rtx-4090',
      capabilities: { device: 'gpu', platformProtocol: false, train: false, export: true },
    });
    expect(shown.capabilities.reason).toBe(
      'Exports only: ultralytics 8.3.166 cannot read ul:// datasets, and cloud training needs the Platform protocol (ultralytics >= 8.4.115)',
    );
    // The GPU type counts only agents that could take the run.
    expect((await api('GET', '/v1/gpu-types', user.cookie)).json().data.find((g: { id: string }) => g.id === 'rtx-4090').online).toBe(1);
    // An agent that can run it takes it.
    const job = await claimRun(agentToken);
    expect(job).toMatchObject({ kind: 'train' });
    expect(job.args).toContain('model=yolo11n.pt');
    await wire(agentToken, `/v1/agents/jobs/${job.id}/finish`, { status: 'failed', error: 'not run in this test' });
    // Exports run on any agent with ultralytics: the old one takes an export.
    await t.database.db
      .insert(modelFiles)
      .values({ modelId: model.id, kind: 'best', name: 'best.pt', blobKey: `users/${user.user.id}/models/${model.id}/best.pt`, bytes: 10 });
    expect((await api('POST', `/v1/models/${model.id}/exports`, user.cookie, { format: 'torchscript' })).statusCode).toBe(201);
    expect(await wire(old, '/v1/agents/claim?waitMs=0')).toMatchObject({ kind: 'export' });
  });

  it('a CPU host trains only once an admin enables a CPU device type, with device=cpu; a host without ultralytics runs nothing, and says so', async () => {
    const cpuToken = (await newToken(t, admin.cookie, 'cpu-box', true)).token;
    await wire(cpuToken, '/v1/agents/register', {
      hostname: 'cpu-host',
      gpus: [],
      cpu: 'AMD EPYC',
      cpuCount: 2,
      ultralyticsVersion: '8.4.41',
      platformProtocol: true,
    });
    const nothing = (await newToken(t, admin.cookie, 'empty-box', true)).token;
    await wire(nothing, '/v1/agents/register', { hostname: 'empty', gpus: [], cpu: 'AMD EPYC', cpuCount: 2, ultralyticsVersion: null });
    const byName = async (name: string) =>
      ((await api('GET', '/v1/agents?scope=all', admin.cookie)).json().data as Array<Record<string, any>>).find((a) => a.name === name)!;
    expect((await byName('cpu-box')).capabilities).toMatchObject({
      device: 'cpu',
      platformProtocol: true,
      train: false,
      reason: expect.stringContaining('no enabled CPU device type'),
    });
    expect((await byName('empty-box')).capabilities).toMatchObject({
      train: false,
      export: false,
      reason: expect.stringContaining('Runs nothing: no ultralytics was found'),
    });

    expect(
      (
        await api('PUT', '/v1/admin/gpu-types', admin.cookie, {
          id: 'cpu',
          name: 'CPU (small models)',
          device: 'cpu',
          match: '*',
          hourlyRateMicro: 360_000,
          imagesPerSecond: 5,
        })
      ).statusCode,
    ).toBe(200);
    expect(await byName('cpu-box')).toMatchObject({ gpuType: 'cpu', capabilities: { train: true, reason: null } });
    // The host without ultralytics matches the CPU type too, but still runs nothing.
    expect((await byName('empty-box')).capabilities.train).toBe(false);
    const user = await proUser();
    const dataset = await readyDataset(user.user.id, 'classify', 'crops');
    const model = (
      await api(
        'POST',
        '/v1/models',
        user.cookie,
        trainDialogBody(choice({ family: 'yolov8', pretrained: false }), { projectId: user.project.id, dataset, parent: null }),
      )
    ).json().data as Model;
    expect((await api('POST', `/v1/models/${model.id}/cloud/train`, user.cookie, { gpuType: 'cpu', epochs: 1 })).statusCode).toBe(201);
    expect(await wire(nothing, '/v1/agents/claim?waitMs=0')).toBeNull();
    expect(await claimRun(agentToken)).toBeNull();
    const job = await claimRun(cpuToken);
    expect(job.kind).toBe('train');
    expect(job.args).toEqual(expect.arrayContaining(['model=yolov8n-cls.yaml', 'device=cpu']));
    await wire(cpuToken, `/v1/agents/jobs/${job.id}/finish`, { status: 'failed', error: 'not run in this test' });
  });
});
