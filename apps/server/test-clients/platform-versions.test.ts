import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientHome, newestFile, runClient, type ClientHome } from './support/clients.js';
import { PY_DIR } from './support/parity.js';
import { reportScenario, timer } from './support/report.js';
import { startServer, type SuiteDataset, type SuiteServer, type SuiteUser } from './support/server.js';

/**
 * Dataset versions reach the real Platform client (ADR 0038): a dataset gets version 1 at Ready, then
 * an edit (a class renamed, images deleted) saved as version 2. The client trains one epoch on
 * `ul://owner/datasets/slug:v1` and one on `ul://owner/datasets/slug` (the latest, v2); each model
 * links to the version it trained on, and the classes and images the client saw are that version's.
 */
const platform = clients().platform;
const IMGSZ = 32;
const q = (s: string) => JSON.stringify(s);

describe.skipIf(!platform)(`current client (ultralytics ${platform?.version ?? '>= 8.4.115'}) trains on dataset versions`, () => {
  let s: SuiteServer;
  let u: SuiteUser;
  let ds: SuiteDataset;
  let home: ClientHome;
  let env: Record<string, string>;
  const v1 = { names: [] as string[], train: 0, val: 0 };
  const v2 = { names: [] as string[], train: 0, val: 0 };

  beforeAll(async () => {
    s = await startServer();
    u = await s.user('plver');
    ds = await s.dataset(u, { task: 'detect', images: 20, size: [48, 64], seed: 31 });
    home = clientHome('platform-versions');
    env = { ULTRALYTICS_PLATFORM_URL: s.origin };
    const login = await runClient(platform!, `yolo login ${u.key}`, { home, env, timeoutMs: 120_000 });
    expect(login.code, login.stdout + login.stderr).toBe(0);
  });
  afterAll(async () => {
    await s?.close();
    if (home) fs.rmSync(home.dir, { recursive: true, force: true });
  });

  it('v1 is saved at Ready; a rename and a delete are saved as v2 (the working state moves on, v1 does not)', async () => {
    const first = await s.waitFor('version 1', async () => ((await u.api('GET', `/v1/datasets/${ds.id}/versions`)).data as any[])?.find((v) => v.number === 1));
    const split = first.splits;
    v1.names = ds.names;
    v1.train = split?.train ?? 0;
    v1.val = split?.val ?? 0;
    expect(v1.train + v1.val).toBe(20);

    const renamed = await u.api('POST', `/v1/datasets/${ds.id}/classes/rename`, { from: 'red_square', to: 'red_box' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const train = (await u.api('GET', `/v1/datasets/${ds.id}/images?split=train&limit=100`)).data.results as Array<{ id: string }>;
    const gone = train.slice(0, 4).map((i) => i.id);
    const deleted = await u.api('POST', `/v1/datasets/${ds.id}/images/delete`, { imageIds: gone });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const saved = await u.api('POST', `/v1/datasets/${ds.id}/versions`, { note: 'red_square is red_box; 4 train images out' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.data.number).toBe(2);
    v2.names = ds.names.map((n) => (n === 'red_square' ? 'red_box' : n));
    v2.train = v1.train - 4;
    v2.val = v1.val;
    expect(saved.data).toMatchObject({ images: v2.train + v2.val, classes: v2.names });
    const still = (await u.api('GET', `/v1/datasets/${ds.id}/versions/1`)).data;
    expect(still).toMatchObject({ images: 20, classes: v1.names, splits: { train: v1.train, val: v1.val } });
  });

  /** One epoch of the real client on `data`; answers the model it reported into, the names in its best.pt and its output. */
  async function train(data: string, name: string) {
    const run = await runClient(
      platform!,
      `yolo train model=yolov8n.yaml data=${data} epochs=1 imgsz=${IMGSZ} batch=8 workers=0 device=cpu plots=False val=True seed=0 project=${u.username}/versions-suite name=${name}`,
      { home, env, timeoutMs: 240_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.code, out.slice(-4000)).toBe(0);
    const models = (await u.api('GET', '/v1/models?limit=50')).data?.results as Array<{ id: string; meta?: { name?: string } }>;
    const id = models.find((m) => m.meta?.name === name)?.id;
    expect(id, `a model named ${name}: ${JSON.stringify(models.map((m) => m.meta?.name))}`).toBeTruthy();
    const best = newestFile(path.join(home.dir, 'runs'), 'best.pt');
    expect(best, out.slice(-2000)).toBeTruthy();
    const names = await runClient(platform!, `$PY ${q(path.join(PY_DIR, 'names.py'))} ${q(best!)}`, { home, timeoutMs: 120_000 });
    expect(names.code, names.stderr).toBe(0);
    return { model: await u.model(id!), saw: JSON.parse(names.stdout.trim().split('\n').pop()!).names as string[], out };
  }

  /** The image counts the client's loaders scanned ("train: Scanning … N images"), by split. */
  const scanned = (out: string, split: 'train' | 'val') => {
    // eslint-disable-next-line no-control-regex
    const plain = out.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    const m = [...plain.matchAll(new RegExp(`${split}: Scanning [^\\r\\n]*?\\.\\.\\. (\\d+) images, `, 'g'))].pop();
    return m ? Number(m[1]) : null;
  };

  it('trains on ul://…/slug:v1: the model links to v1, the client saw v1 (old class name, all images)', async () => {
    const done = timer();
    const { model, saw, out } = await train(`${ds.uri}:v1`, 'on-v1');
    expect(model.dataset).toMatchObject({ id: ds.id, version: 1 });
    expect(saw).toEqual(v1.names);
    expect(model.names).toEqual(v1.names);
    expect(scanned(out, 'train'), out.slice(-3000)).toBe(v1.train);
    expect(scanned(out, 'val')).toBe(v1.val);
    const version = (await u.api('GET', `/v1/datasets/${ds.id}/versions/1`)).data;
    expect(version.modelList.map((m: { id: string }) => m.id)).toEqual([model.id]);
    reportScenario({ generation: 'platform', scenario: 'ul://…:v1 (a given version)', epochs: 1, seconds: done() });
  });

  it('trains on ul://…/slug (the latest, v2): the model links to v2, the client saw the renamed class and 4 images fewer', async () => {
    const done = timer();
    const { model, saw, out } = await train(ds.uri, 'on-latest');
    expect(model.dataset).toMatchObject({ id: ds.id, version: 2 });
    expect(saw).toEqual(v2.names);
    expect(model.names).toEqual(v2.names);
    expect(scanned(out, 'train'), out.slice(-3000)).toBe(v2.train);
    expect(scanned(out, 'val')).toBe(v2.val);
    const version = (await u.api('GET', `/v1/datasets/${ds.id}/versions/2`)).data;
    expect(version.modelList.map((m: { id: string }) => m.id)).toEqual([model.id]);
    reportScenario({ generation: 'platform', scenario: 'ul://… latest (v2 after an edit)', epochs: 1, seconds: done() });
  });
});
