import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelStatus } from '@sightline/contracts';
import { clients, clientHome, newestFile, runClient, startClient, type ClientHome } from './support/clients.js';
import { reportScenario, timer } from './support/report.js';
import { startServer, type SuiteDataset, type SuiteServer, type SuiteUser } from './support/server.js';

/**
 * The current generation for real: the Platform-protocol client (platform-protocol.md) against a
 * real Sightline server: `yolo login`, `yolo train data=ul://…` with the model's state watched while
 * it trains, the dataset's class names, then `yolo predict model=ul://…`.
 */
const platform = clients().platform;
const FIXTURES = path.resolve(import.meta.dirname, '../../../../shared/fixtures/models');
const EPOCHS = 2;
const IMGSZ = 64;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Snapshot {
  at: number;
  /** What the model page, lists and Active jobs show (contracts' modelStatus of the model's dates). */
  shown: string;
  outcome: string | null;
  epochs: number;
  ended: boolean;
}

describe.skipIf(!platform)(`current client (ultralytics ${platform?.version ?? '>= 8.4.115'}, Platform protocol)`, () => {
  let s: SuiteServer;
  let u: SuiteUser;
  let ds: SuiteDataset;
  let home: ClientHome;
  let env: Record<string, string>;
  let modelId: string;
  /** The model as the server showed it while the client was training (from its training_started to its last epoch). */
  const live: Snapshot[] = [];

  beforeAll(async () => {
    s = await startServer();
    u = await s.user('plat');
    ds = await s.dataset(u, { task: 'detect', images: 40, size: [96, 160], seed: 23 });
    home = clientHome('platform');
    env = { ULTRALYTICS_PLATFORM_URL: s.origin };
  });
  afterAll(async () => {
    await s?.close();
    if (home) fs.rmSync(home.dir, { recursive: true, force: true });
  });

  it('yolo login saves the key the server accepts', async () => {
    const run = await runClient(platform!, `yolo login ${u.key}`, { home, env, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/New authentication successful/);
    const saved = [path.join(home.configDir, 'Ultralytics', 'settings.json'), path.join(home.configDir, 'settings.json')].map(
      (f) => JSON.parse(fs.readFileSync(f, 'utf8')).api_key,
    );
    expect(saved).toContain(u.key);
  });

  it("trains from ul://, is Training (outcome running) while it reports, ends completed with the dataset's class names and the client's best.pt", async () => {
    const done = timer();
    const train = startClient(
      platform!,
      `yolo train model=yolov8n.yaml data=${ds.uri} epochs=${EPOCHS} imgsz=${IMGSZ} batch=8 workers=0 device=cpu plots=False seed=0 project=${u.username}/platform-suite name=run1`,
      { home, env, timeoutMs: 240_000 },
    );
    let exited = false;
    void train.done.then(() => (exited = true));
    // Watch the model as the web app does while the process lives.
    while (!exited) {
      const list = (await u.api('GET', '/v1/models?limit=10')).data?.results as Array<{ id: string; meta?: { name?: string } }> | undefined;
      const id = modelId ?? list?.[0]?.id;
      if (id) {
        modelId = id;
        // Live = the client is still in its epochs, before and after the look (it prints
        // "N epochs completed" before its final validation, upload and training_complete).
        const training = () => !exited && !/epochs? completed in/.test(train.output());
        const before = training();
        const m = await u.model(id);
        const ended = Boolean(m.dates.train.end);
        if (before && training())
          live.push({ at: Date.now(), shown: modelStatus(m.dates), outcome: m.training?.outcome ?? null, epochs: m.metrics.epochs, ended });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const run = await train.done;
    const out = run.stdout + run.stderr;
    expect(run.code, out.slice(-4000)).toBe(0);
    expect(modelId, 'the run created a model').toBeTruthy();
    // The watch saw the run between its start and its end, epochs reported (the next test asserts what it showed).
    expect(live.length, out.slice(-2000)).toBeGreaterThan(0);
    expect(live.some((x) => x.epochs >= 1)).toBe(true);
    expect(live.map((x) => `${x.outcome}${x.ended ? ' ended' : ''}`)).toEqual(live.map(() => 'running'));

    const m = await u.model(modelId);
    expect(m.training).toMatchObject({ protocol: 'platform', outcome: 'completed' });
    expect(modelStatus(m.dates)).toBe('Trained');
    expect(m.dataset?.id).toBe(ds.id);
    expect(m.names).toEqual(ds.names);
    const metrics = (await u.api('GET', `/v1/models/${modelId}/metrics`)).data as Array<{ epoch: number }>;
    expect(metrics.map((x) => x.epoch).sort()).toEqual(Array.from({ length: EPOCHS }, (_, i) => i));
    // The uploaded weights are the client's best.pt.
    const best = newestFile(path.join(home.dir, 'runs'), 'best.pt');
    expect(best, out.slice(-2000)).toBeTruthy();
    const file = m.files.find((f: { kind: string }) => f.kind === 'best');
    const served = Buffer.from(await (await fetch(new URL(file.url, s.origin), { headers: { cookie: u.cookie } })).arrayBuffer());
    expect(sha256(served)).toBe(sha256(fs.readFileSync(best!)));
    reportScenario({
      generation: 'platform',
      scenario: 'ul:// train + live status + names',
      epochs: EPOCHS,
      seconds: done(),
      note: `${live.length} live looks`,
    });
  });

  // Kept apart so it can be read on its own: the run lifecycle shows a running Platform run as
  // Training (issue "Train for real", an honest run lifecycle); its wire sends no heartbeats, any
  // event counts.
  it('a live Platform run shows Training (model page, lists and Active jobs read modelStatus)', () => {
    expect(live.length, 'the training test watched the run').toBeGreaterThan(0);
    expect(live.map((x) => `${x.shown} (epochs ${x.epochs})`)).toEqual(live.map((x) => `Training (epochs ${x.epochs})`));
  });

  it('yolo predict model=ul://… downloads the trained weights and predicts', async () => {
    expect(modelId, 'the training test ran first').toBeTruthy();
    const done = timer();
    const image = path.join(FIXTURES, 'test-images', 'test_0000.png');
    const run = await runClient(
      platform!,
      `yolo predict model=ul://${u.username}/platform-suite/run1 source=${JSON.stringify(image)} imgsz=${IMGSZ} device=cpu save=False`,
      { home, env, timeoutMs: 180_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.code, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/test_0000\.png: \d+x\d+ /);
    // What it ran is the model's best.pt, fetched into the client's weights folder.
    const downloaded = newestFile(path.join(home.dir, 'weights'), /\.pt$/);
    expect(downloaded, out.slice(-2000)).toBeTruthy();
    const m = await u.model(modelId);
    const file = m.files.find((f: { kind: string }) => f.kind === 'best');
    const served = Buffer.from(await (await fetch(new URL(file.url, s.origin), { headers: { cookie: u.cookie } })).arrayBuffer());
    expect(sha256(fs.readFileSync(downloaded!))).toBe(sha256(served));
    reportScenario({ generation: 'platform', scenario: 'yolo predict model=ul://', seconds: done() });
  });
});
