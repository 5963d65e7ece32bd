import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, clientHome, newestFile, runClient, type ClientHome } from './support/clients.js';
import { PY_DIR } from './support/parity.js';
import { reportScenario, timer } from './support/report.js';
import { startServer, type SuiteDataset, type SuiteServer, type SuiteUser } from './support/server.js';
import { zipEntries } from '../test/support/zip.js';

/**
 * Labels edited the way the annotation editor edits them (ADR 0040: `PUT …/images/:imageId/labels` with the
 * revision read; ADR 0037's revisioned write) reach the real Platform client unchanged: a box added, a class
 * changed and a box deleted on three images; the editor's class counts (`GET …/class-counts`, ADR 0039) equal
 * the dataset's stats after the edit; version 2's YOLO zip holds exactly the edited labels; the client trains
 * one epoch on `ul://owner/datasets/slug:v2` (its NDJSON) and the model links to version 2; the labels the
 * client's own training loader reads — from the dataset it converted out of the NDJSON and from the zip —
 * count per class what the editor counts.
 */
const platform = clients().platform;
const IMGSZ = 32;
const q = (s: string) => JSON.stringify(s);

type Img = { id: string; split: string; name: string; labels: number[][]; labelRevision?: number };
type SplitCounts = { images: number; unlabelled: number; per_class: number[] };

const stem = (name: string) => name.replace(/\.[^.]+$/, '');
const parseLabels = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/).map(Number));

describe.skipIf(!platform)(`current client (ultralytics ${platform?.version ?? '>= 8.4.115'}) trains on labels edited in the editor`, () => {
  let s: SuiteServer;
  let u: SuiteUser;
  let ds: SuiteDataset;
  let home: ClientHome;
  let env: Record<string, string>;
  /** Per class name, label rows after the edit (what the editor's counts must say). */
  let expected: Record<string, number>;
  let images: Img[] = [];
  let zipPath = '';

  beforeAll(async () => {
    s = await startServer();
    u = await s.user('pledit');
    ds = await s.dataset(u, { task: 'detect', images: 20, size: [48, 64], seed: 47 });
    home = clientHome('platform-edited');
    env = { ULTRALYTICS_PLATFORM_URL: s.origin };
    const login = await runClient(platform!, `yolo login ${u.key}`, { home, env, timeoutMs: 120_000 });
    expect(login.code, login.stdout + login.stderr).toBe(0);
  });
  afterAll(async () => {
    await s?.close();
    if (home) fs.rmSync(home.dir, { recursive: true, force: true });
  });

  const allImages = async () => ((await u.api('GET', `/v1/datasets/${ds.id}/images?limit=100`)).data.results as Img[]).sort((a, b) => a.id.localeCompare(b.id));
  const countsOf = (list: Img[]) => {
    const out: Record<string, number> = Object.fromEntries(ds.names.map((n) => [n, 0]));
    for (const i of list) for (const r of i.labels) out[ds.names[r[0]!]!]! += 1;
    return out;
  };

  it('adds a box, changes a class and deletes a box through the editor’s revisioned label write; class counts equal the stats', async () => {
    await s.waitFor('version 1', async () => ((await u.api('GET', `/v1/datasets/${ds.id}/versions`)).data as any[])?.find((v) => v.number === 1));
    const before = await allImages();
    expect(before).toHaveLength(20);
    const countsBefore = (await u.api('GET', `/v1/datasets/${ds.id}/class-counts`)).data;
    expect(countsBefore.counts).toEqual(countsOf(before));

    const withTwo = before.filter((i) => i.labels.length >= 2);
    const [addTo, recolour, trim] = [before.find((i) => !withTwo.includes(i))!, withTwo[0]!, withTwo[1]!];
    expect(addTo && recolour && trim, 'three images to edit').toBeTruthy();
    // What the editor sends: the image's labels read with their revision, then the whole edited list on that revision.
    const put = async (img: Img, labels: number[][]) => {
      const read = (await u.api('GET', `/v1/datasets/${ds.id}/images/${img.id}/labels`)).data;
      const res = await u.api('PUT', `/v1/datasets/${ds.id}/images/${img.id}/labels`, { revision: read.revision, labels });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.data.revision).toBe(read.revision + 1);
      return { revision: read.revision as number, labels: res.data.labels as number[][] };
    };
    const added = [1, 0.5, 0.5, 0.25, 0.3];
    const a = await put(addTo, [...addTo.labels, added]);
    expect(a.labels).toHaveLength(addTo.labels.length + 1);
    const newCls = (recolour.labels[0]![0]! + 1) % ds.names.length;
    await put(recolour, [[newCls, ...recolour.labels[0]!.slice(1)], ...recolour.labels.slice(1)]);
    await put(trim, trim.labels.slice(1));
    // A second tab still on the old revision is refused, and the labels stay as saved.
    const stale = await u.api('PUT', `/v1/datasets/${ds.id}/images/${addTo.id}/labels`, { revision: a.revision, labels: [] });
    expect(stale.status).toBe(409);

    images = await allImages();
    const edited = new Map(images.map((i) => [i.id, i]));
    expect(edited.get(addTo.id)!.labels.at(-1)).toEqual(added);
    expect(edited.get(recolour.id)!.labels[0]![0]).toBe(newCls);
    expect(edited.get(trim.id)!.labels).toHaveLength(trim.labels.length - 1);

    expected = countsOf(images);
    const delta = Object.fromEntries(ds.names.map((n) => [n, expected[n]! - countsBefore.counts[n]]));
    const oldName = ds.names[recolour.labels[0]![0]!]!;
    const trimmed = ds.names[trim.labels[0]![0]!]!;
    const want = Object.fromEntries(ds.names.map((n) => [n, 0]));
    want[ds.names[1]!]! += 1;
    want[oldName]! -= 1;
    want[ds.names[newCls]!]! += 1;
    want[trimmed]! -= 1;
    expect(delta).toEqual(want);

    const counts = (await u.api('GET', `/v1/datasets/${ds.id}/class-counts`)).data;
    expect(counts).toEqual({ counts: expected, images: 20, unlabelled: images.filter((i) => !i.labels.length).length });
    const d = (await u.api('GET', `/v1/datasets/${ds.id}`)).data;
    const fromStats = Object.fromEntries(
      ds.names.map((n, c) => [n, (['train', 'val', 'test'] as const).reduce((sum, sp) => sum + (d.splitStats?.[sp]?.instance_stats.per_class[c] ?? 0), 0)]),
    );
    expect(fromStats).toEqual(counts.counts);
    expect(d.stats.images).toBe(counts.images);
  });

  it('version 2’s YOLO zip holds exactly the edited labels', async () => {
    const saved = await u.api('POST', `/v1/datasets/${ds.id}/versions`, { note: 'edited in the editor' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.data.number).toBe(2);
    const res = await fetch(`${s.origin}/v1/datasets/${ds.id}/versions/2/download`, { headers: { cookie: u.cookie } });
    expect(res.status).toBe(200);
    const buf = Buffer.from(await res.arrayBuffer());
    zipPath = path.join(home.dir, `edited-v2.zip`);
    fs.writeFileSync(zipPath, buf);
    const files = await zipEntries(buf);
    const labelFiles = [...files.keys()].filter((f) => /\/labels\/(train|val|test)\/[^/]+\.txt$/.test(f));
    const imageFiles = [...files.keys()].filter((f) => /\/images\/(train|val|test)\/[^/]+$/.test(f));
    expect(imageFiles).toHaveLength(images.length);
    for (const img of images) {
      const file = labelFiles.find((f) => f.endsWith(`/labels/${img.split}/${stem(img.name)}.txt`));
      const rows = file ? parseLabels(files.get(file)!.toString()) : [];
      expect(rows.length, `${img.name}: ${file}`).toBe(img.labels.length);
      rows.forEach((r, k) => {
        expect(r[0]).toBe(img.labels[k]![0]);
        r.slice(1).forEach((v, j) => expect(Math.abs(v - img.labels[k]![j + 1]!)).toBeLessThanOrEqual(1e-6));
      });
    }
    const yaml = [...files.entries()].find(([f]) => f.endsWith('data.yaml'))![1].toString();
    for (const n of ds.names) expect(yaml).toContain(n);
  });

  it('the client trains one epoch on ul://…:v2; the model links to v2 and the client’s loader counts what the editor counts (NDJSON and zip)', async () => {
    const done = timer();
    const name = 'edited-v2';
    const run = await runClient(
      platform!,
      `yolo train model=yolov8n.yaml data=${ds.uri}:v2 epochs=1 imgsz=${IMGSZ} batch=8 workers=0 device=cpu plots=False val=True seed=0 project=${u.username}/edited-suite name=${name}`,
      { home, env, timeoutMs: 240_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.code, out.slice(-4000)).toBe(0);
    const models = (await u.api('GET', '/v1/models?limit=50')).data?.results as Array<{ id: string; meta?: { name?: string } }>;
    const id = models.find((m) => m.meta?.name === name)?.id;
    expect(id, JSON.stringify(models.map((m) => m.meta?.name))).toBeTruthy();
    const model = await u.model(id!);
    expect(model.dataset).toMatchObject({ id: ds.id, version: 2 });
    const version = (await u.api('GET', `/v1/datasets/${ds.id}/versions/2`)).data;
    expect(version.modelList.map((m: { id: string }) => m.id)).toEqual([model.id]);
    const trained = done();

    // The dataset the client converted out of the NDJSON (its data.yaml under the home's datasets/), then the zip.
    const converted = newestFile(path.join(home.dir, 'datasets'), 'data.yaml');
    expect(converted, out.slice(-2000)).toBeTruthy();
    // Image by image, the label files the client wrote from the NDJSON (`<imageId>_<name>`) are the edited labels.
    const root = path.dirname(converted!);
    for (const img of images) {
      const file = path.join(root, 'labels', img.split, `${stem(`${img.id}_${img.name}`)}.txt`);
      const rows = fs.existsSync(file) ? parseLabels(fs.readFileSync(file, 'utf8')) : [];
      expect(rows.length, file).toBe(img.labels.length);
      rows.forEach((r, k) => {
        expect(r[0]).toBe(img.labels[k]![0]);
        r.slice(1).forEach((v, j) => expect(Math.abs(v - img.labels[k]![j + 1]!)).toBeLessThanOrEqual(1e-6));
      });
    }
    const stats = await runClient(platform!, `$PY ${q(path.join(PY_DIR, 'label_stats.py'))} ${q(converted!)} ${q(zipPath)}`, { home, timeoutMs: 120_000 });
    expect(stats.code, stats.stderr.slice(-3000)).toBe(0);
    const seen = stats.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { data: string; names: string[]; splits: Record<string, SplitCounts> });
    expect(seen).toHaveLength(2);
    const unlabelled = images.filter((i) => !i.labels.length).length;
    for (const one of seen) {
      expect(one.names, one.data).toEqual(ds.names);
      const perClass = Object.fromEntries(ds.names.map((n, c) => [n, Object.values(one.splits).reduce((sum, sp) => sum + sp.per_class[c]!, 0)]));
      expect(perClass, one.data).toEqual(expected);
      expect(Object.values(one.splits).reduce((sum, sp) => sum + sp.images, 0)).toBe(images.length);
      expect(Object.values(one.splits).reduce((sum, sp) => sum + sp.unlabelled, 0)).toBe(unlabelled);
      for (const sp of ['train', 'val'] as const) expect(one.splits[sp]?.images, `${one.data} ${sp}`).toBe(images.filter((i) => i.split === sp).length);
    }
    reportScenario({
      generation: 'platform',
      scenario: 'editor-edited labels: ul://…:v2 + zip stats',
      epochs: 1,
      seconds: done(),
      note: `train ${trained.toFixed(0)} s`,
    });
  });
});
