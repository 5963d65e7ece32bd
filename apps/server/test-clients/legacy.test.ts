import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientHome, newestFile, runClient, startClient, type ClientHome } from './support/clients.js';
import { clientPredictions, compareBoxes, PY_DIR, serverPredictions } from './support/parity.js';
import { report, reportScenario, timer } from './support/report.js';
import { startServer, type SuiteDataset, type SuiteServer, type SuiteUser } from './support/server.js';

/**
 * The legacy generation for real: ultralytics 8.3.166 + hub-sdk against a real Sightline server
 * over the HUB protocol (hub-protocol.md): login, a run that is stopped from the page and
 * interrupted with Ctrl-C, its resume from the uploaded checkpoint, the final weights and class
 * names, then predictions of the server against the client's own on the same model.
 */
const legacy = clients().legacy;
const FIXTURES = path.resolve(import.meta.dirname, '../../../../shared/fixtures/models');
const TEST_IMAGES = path.join(FIXTURES, 'test-images');
const EPOCHS = 3;
const IMGSZ = 64;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const q = (s: string) => JSON.stringify(s);

describe.skipIf(!legacy)(`legacy client (ultralytics ${legacy?.version ?? '8.3.x'} + hub-sdk, HUB protocol)`, () => {
  let s: SuiteServer;
  let u: SuiteUser;
  let ds: SuiteDataset;
  let home: ClientHome;
  let env: Record<string, string>;
  let modelId: string;
  /** The user's agent (the real sightline-agent with this client's yolo), started while the client trains. */
  let agent: Promise<unknown> | null = null;

  beforeAll(async () => {
    s = await startServer();
    u = await s.user('legacy');
    ds = await s.dataset(u, { task: 'detect', images: 40, size: [96, 160], seed: 22 });
    home = clientHome('legacy');
    env = { ULTRALYTICS_HUB_API: s.origin, ULTRALYTICS_HUB_WEB: s.origin };
  });
  afterAll(async () => {
    await s?.close();
    if (home) fs.rmSync(home.dir, { recursive: true, force: true });
  });

  it('yolo login saves the key the server accepts', async () => {
    const run = await runClient(legacy!, `yolo login ${u.legacyKey}`, { home, env, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/New authentication successful/);
    const settings = JSON.parse(fs.readFileSync(path.join(home.configDir, 'settings.json'), 'utf8'));
    expect(settings.api_key).toBe(u.legacyKey);
  });

  it('trains, is stopped and interrupted (Ctrl-C), resumes from its checkpoint to the end; weights byte-identical to its best.pt, class names of the dataset', async () => {
    const done = timer();
    // Starts from one of the user's models (a real shapes detector uploaded as .pt: nothing can be
    // downloaded here), so the few CPU epochs end with a model that finds boxes to compare.
    const project = await u.api('POST', '/v1/projects', { meta: { name: 'legacy client' } });
    expect(project.status).toBe(201);
    const parent = await u.form(
      '/v1/models/upload',
      { project_id: project.data.id, model_name: 'shapes detector' },
      { filename: 'shapes3-detect.pt', content: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.pt')) },
    );
    expect(parent.status, JSON.stringify(parent.body)).toBe(201);
    const created = await u.api('POST', '/v1/models', {
      meta: { name: 'legacy resume' },
      projectId: project.data.id,
      dataset: { id: ds.id },
      lineage: { architecture: { name: 'yolov8n' }, parent: { id: parent.data.id } },
      config: { epochs: EPOCHS, imageSize: IMGSZ, batchSize: 8, patience: 100, device: 'cpu', cache: false, advanced: { workers: 0, plots: false, seed: 0 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    modelId = created.data.id;
    const url = `${s.origin}/models/${modelId}`;

    // The export after training runs on the user's agent; it starts up meanwhile.
    agent = s.agent(u, legacy!);
    agent.catch(() => undefined);

    // Run 1: a checkpoint after every epoch (the session's 900 s limit lowered from outside the client).
    const first = startClient(legacy!, `$PY ${q(path.join(PY_DIR, 'hub_train.py'))} ${url} 0`, { home, env, timeoutMs: 240_000 });
    const checkpoint = await s
      .waitFor(
        'the first epoch checkpoint',
        async () => {
          const m = await u.model(modelId);
          return m.files.find((f: { kind: string }) => f.kind === 'last') ?? null;
        },
        180_000,
        250,
      )
      .catch((err: Error) => {
        first.signal('SIGKILL');
        throw new Error(`${err.message}\n${first.output().slice(-3000)}`);
      });
    expect((await u.api('POST', `/v1/models/${modelId}/stop`)).status).toBe(200);
    first.signal('SIGINT');
    const firstRun = await first.done;
    const firstOut = firstRun.stdout + firstRun.stderr;
    expect(firstOut, 'the first run was interrupted before it finished').not.toMatch(/Syncing final model/);
    const stopped = await u.model(modelId);
    expect(stopped.status).not.toBe('trained');
    expect(stopped.training).toMatchObject({ protocol: 'hub', cancelRequested: true });

    // Run 2: the same command again resumes from the uploaded checkpoint; the earlier Stop stays with run 1.
    const second = await runClient(legacy!, `$PY ${q(path.join(PY_DIR, 'hub_train.py'))} ${url}`, { home, env, timeoutMs: 240_000 });
    const secondOut = second.stdout + second.stderr;
    expect(second.code, secondOut.slice(-4000)).toBe(0);
    const resumed = /Resuming training .* from epoch (\d+) to (\d+) total epochs/.exec(secondOut);
    expect(resumed, secondOut.slice(-4000)).not.toBeNull();
    expect(Number(resumed![1])).toBeGreaterThanOrEqual(Number(checkpoint.epoch) + 2);
    expect(Number(resumed![2])).toBe(EPOCHS);

    const trained = await u.model(modelId);
    expect(trained.status).toBe('trained');
    expect(trained.training).toMatchObject({ outcome: 'completed', cancelRequested: false });
    const metrics = (await u.api('GET', `/v1/models/${modelId}/metrics`)).data as Array<{ epoch: number }>;
    expect(metrics.map((m) => m.epoch)).toContain(EPOCHS - 1);

    // The weights the server keeps are the client's best.pt, byte for byte.
    const best = newestFile(path.join(home.dir, 'runs'), 'best.pt');
    expect(best).not.toBeNull();
    const file = trained.files.find((f: { kind: string }) => f.kind === 'best');
    const download = await fetch(new URL(file.url, s.origin), { headers: { cookie: u.cookie } });
    expect(download.status).toBe(200);
    const served = Buffer.from(await download.arrayBuffer());
    const local = fs.readFileSync(best!);
    expect(served.length).toBe(local.length);
    expect(sha256(served)).toBe(sha256(local));

    // Class names: the dataset's, on the model page and inside the client's own checkpoint.
    expect(trained.names).toEqual(ds.names);
    const names = await runClient(legacy!, `$PY ${q(path.join(PY_DIR, 'names.py'))} ${q(best!)}`, { home, timeoutMs: 120_000 });
    expect(names.code, names.stderr).toBe(0);
    expect(JSON.parse(names.stdout.trim().split('\n').pop()!)).toEqual({ task: 'detect', names: ds.names });

    reportScenario({
      generation: 'legacy',
      scenario: 'train + Stop + Ctrl-C + resume',
      epochs: EPOCHS,
      seconds: done(),
      note: `resumed at epoch ${resumed![1]}/${EPOCHS}`,
    });
    report(`legacy: weights byte-identical to the client's best.pt (${(local.length / 1e6).toFixed(1)} MB, sha256 ${sha256(local).slice(0, 12)})`);
  });

  it("/v1/predict on the server gives the boxes of the client's own predict on the same model (its best.pt; the server runs its ONNX export)", async () => {
    expect(modelId, 'the training test ran first').toBeTruthy();
    const done = timer();
    // The ONNX export runs as a job on the user's agent (the real sightline-agent with this client's yolo).
    await (agent ?? s.agent(u, legacy!));
    await s.waitFor(
      'the ONNX export of the trained model',
      async () => {
        const exports = (await u.api('GET', `/v1/models/${modelId}/exports`)).data;
        const rows = (exports?.exports ?? []) as Array<{ format: string; status: string; error?: string | null }>;
        const onnx = rows.find((r) => r.format === 'onnx');
        if (!onnx) await u.api('POST', `/v1/models/${modelId}/exports`, { format: 'onnx', options: {} });
        if (onnx?.status === 'failed') throw new Error(`ONNX export failed: ${onnx.error}`);
        return onnx?.status === 'succeeded';
      },
      180_000,
      1000,
    );
    const exportSeconds = done();
    const best = newestFile(path.join(home.dir, 'runs'), 'best.pt')!;
    const images = fs
      .readdirSync(TEST_IMAGES)
      .filter((f) => f.endsWith('.png'))
      .sort()
      .map((f) => path.join(TEST_IMAGES, f));
    const server = await serverPredictions(s, u, modelId, IMGSZ, images);
    // The client's own predict on its best.pt (the server runs the ONNX export of that same file;
    // the client has no onnxruntime here).
    const client = await clientPredictions(legacy!, home, best, IMGSZ, images);
    const p = compareBoxes(server, client.boxes);
    console.log(
      `[legacy] predict parity on ${images.length} images: ${p.boxes} boxes, largest difference ${p.maxDiffPx.toPrecision(2)} px, confidence ${p.maxConfDiff.toPrecision(2)}; ${p.nearThreshold} near the threshold (agent + export ${exportSeconds} s)`,
    );
    expect(p.unmatched).toEqual([]);
    expect(p.boxes, 'the model finds boxes to compare').toBeGreaterThan(0);
    // PyTorch against ONNX of the same weights, the server rounding to 0.001 px (fixtures README: ≤ 1 px, seen ~1e-3).
    expect(p.maxDiffPx).toBeLessThan(0.05);
    expect(p.maxConfDiff).toBeLessThan(1e-3);
    expect(Object.values(client.names)).toEqual(ds.names);
    reportScenario({ generation: 'legacy', scenario: 'ONNX export + predict parity (.pt)', boxes: p.boxes, maxDiffPx: p.maxDiffPx, seconds: done() });
  });
});
