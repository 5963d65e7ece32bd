import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, users } from '../src/platform/db/schema.js';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildTeam, buildUser } from './support/factories.js';
import { fixtureFile, shapesSplitZip } from './support/labelling.js';

/**
 * Model-assisted labelling over HTTP (ADR 0039): pre-labelling a 200-image split with the fixture
 * detect model as a job with progress, suggestions equal to /v1/predict's boxes, accept all in one
 * action, reject, review filters, the labeler role, bad input.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 300_000);
afterAll(async () => {
  await t.close();
});

type H = Record<string, string>;
type User = Awaited<ReturnType<typeof buildUser>>;
const req = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: H = {}, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as never });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function proUser() {
  const u = await buildUser(t.app);
  await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
  return u;
}

async function uploadModel(u: User, file: string) {
  const mp = multipart({ model_name: path.basename(file) }, { filename: path.basename(file), content: fixtureFile(file) });
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

/** A processed dataset made the way the web app makes one: create, tus upload, process. */
async function readyDataset(u: User, name: string, bytes: Buffer) {
  const d = (await req('POST', '/v1/datasets', { cookie: u.cookie }, { meta: { name }, task: 'detect' })).json().data;
  const tok = (
    await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/${name}`, bytes: bytes.length })
  ).json().data.token;
  const create = await req('POST', '/v1/uploads/tus', {
    cookie: u.cookie,
    'tus-resumable': '1.0.0',
    'upload-length': String(bytes.length),
    'upload-metadata': `token ${b64(tok)},filename ${b64(name)}`,
  });
  const url = new URL(create.headers.location as string, 'http://x').pathname;
  const put = await t.app.inject({
    method: 'PATCH',
    url,
    headers: { cookie: u.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: bytes,
  });
  expect(put.statusCode).toBe(204);
  expect((await req('POST', `/v1/datasets/${d.id}/process`, { cookie: u.cookie })).statusCode).toBe(202);
  await t.app.ctx.jobs.drain();
  const ready = (await req('GET', `/v1/datasets/${d.id}`, { cookie: u.cookie })).json().data;
  expect(ready.status, JSON.stringify(ready.error ?? ready)).toBe('Ready');
  return d.id as string;
}

type Img = { id: string; name: string; split: string; width: number; height: number; labels: number[][] };
async function allImages(u: User, dataset: string): Promise<Img[]> {
  const out: Img[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = (await req('GET', `/v1/datasets/${dataset}/images?split=train&limit=200&offset=${offset}`, { cookie: u.cookie })).json().data;
    out.push(...page.results);
    if (page.results.length < 200) return out;
  }
}

const NAMES = ['red_square', 'green_circle', 'blue_triangle'];

describe('pre-labelling a 200-image split with the fixture detect model', () => {
  let owner: User;
  let model: string;
  let dataset: string;
  let bytes: Map<string, Buffer>;
  const heard: Array<{ topic: string; event: string; data: Record<string, unknown> }> = [];

  beforeAll(async () => {
    owner = await proUser();
    model = await uploadModel(owner, 'shapes3-detect.onnx');
    await t.app.ctx.jobs.drain();
    const made = await shapesSplitZip(200, 50);
    bytes = made.bytes;
    dataset = await readyDataset(owner, 'shapes200.zip', made.zip);
  }, 300_000);

  it('runs as a job with progress; each suggestion is what /v1/predict answers for the image; accept all makes them labels', async () => {
    const stop = t.app.ctx.bus.subscribe((e) => void heard.push(e as never));
    const start = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie }, { modelId: model, split: 'train', conf: 0.25 });
    expect(start.statusCode).toBe(202);
    const queued = start.json().data;
    expect(queued).toMatchObject({ status: 'queued', split: 'train', total: 200, done: 0, model: { id: model } });
    // By name: every model class goes to the dataset class of the same name.
    expect(queued.classMap).toEqual(NAMES.map((name, i) => ({ modelClass: i, name, datasetClass: i })));
    expect((await req('GET', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie })).json().data[0].id).toBe(queued.id);

    await t.app.ctx.jobs.drain();
    stop();
    const job = (await req('GET', `/v1/datasets/${dataset}/prelabel/${queued.id}`, { cookie: owner.cookie })).json().data;
    expect(job).toMatchObject({ status: 'completed', done: 200, total: 200 });
    expect(job.suggested).toBeGreaterThan(150);
    const progress = heard.filter((e) => e.topic === `dataset:${dataset}` && e.event === 'prelabel.progress').map((e) => e.data);
    const running = progress.filter((p) => p.status === 'running').map((p) => p.done as number);
    console.log(`pre-labelling progress messages: ${progress.length} (running: ${running.join(', ')})`);
    expect(running.length).toBeGreaterThanOrEqual(3);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ status: 'completed', done: 200, total: 200 });

    // Suggestions are kept apart: labels unchanged, suggestions per image equal to /v1/predict's boxes.
    const before = await allImages(owner, dataset);
    expect(before).toHaveLength(200);
    let compared = 0;
    let totalRows = 0;
    for (const img of before) {
      const s = (await req('GET', `/v1/datasets/${dataset}/images/${img.id}/suggestions`, { cookie: owner.cookie })).json().data.suggestions;
      const mp = multipart({}, { filename: img.name, content: bytes.get(img.name)! });
      const pred = await t.app.inject({ method: 'POST', url: `/v1/predict/${model}`, headers: { ...mp.headers, cookie: owner.cookie }, payload: mp.payload });
      expect(pred.statusCode).toBe(200);
      const results = pred.json().images[0].results as Array<{ name: string; confidence: number; box: { x1: number; y1: number; x2: number; y2: number } }>;
      const rows: number[][] = s[0]?.labels ?? [];
      expect(rows.length, img.name).toBe(results.length);
      totalRows += rows.length;
      results.forEach((r, k) => {
        const [cls, cx, cy, w, h] = rows[k]!;
        expect(NAMES[cls!]).toBe(r.name);
        expect(Math.abs(s[0].conf[k] - r.confidence)).toBeLessThanOrEqual(0.0006); // 1e-4 vs the predict API's 1e-3
        // The row in pixels is the predict box (both rounded: 1e-6 of the side, 1e-3 px).
        expect(Math.abs((cx! - w! / 2) * img.width - r.box.x1)).toBeLessThan(0.01);
        expect(Math.abs((cy! - h! / 2) * img.height - r.box.y1)).toBeLessThan(0.01);
        expect(Math.abs((cx! + w! / 2) * img.width - r.box.x2)).toBeLessThan(0.01);
        expect(Math.abs((cy! + h! / 2) * img.height - r.box.y2)).toBeLessThan(0.01);
        compared += 1;
      });
    }
    console.log(`suggestions compared with /v1/predict: ${compared} boxes on 200 images`);
    expect(totalRows).toBe(job.boxes);

    // Review filters: unlabelled (150 made without labels), with suggestions; keyset pages.
    const unlabelled: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { results: Img[]; nextCursor: string | null } = (
        await req('GET', `/v1/datasets/${dataset}/review?filter=unlabelled&split=train&limit=64${cursor ? `&cursor=${cursor}` : ''}`, { cookie: owner.cookie })
      ).json().data;
      unlabelled.push(...page.results.map((r: Img) => r.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(unlabelled).toEqual(before.filter((i) => i.labels.length === 0).map((i) => i.name));
    expect(unlabelled.length).toBeGreaterThanOrEqual(150);
    const suggested = (await req('GET', `/v1/datasets/${dataset}/review?filter=suggested&limit=200`, { cookie: owner.cookie })).json().data;
    expect(suggested.results).toHaveLength(job.suggested);
    expect(suggested.results.every((r: { suggestions: number }) => r.suggestions === 1)).toBe(true);

    // Accept all in one action: every suggested row is added to the image's labels.
    heard.length = 0;
    const stop2 = t.app.ctx.bus.subscribe((e) => void heard.push(e as never));
    const countsBefore = (await req('GET', `/v1/datasets/${dataset}/class-counts`, { cookie: owner.cookie })).json().data;
    const accepted = await req('POST', `/v1/datasets/${dataset}/suggestions/accept`, { cookie: owner.cookie }, { all: true, split: 'train' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({ images: job.suggested, rows: job.boxes });
    const after = await allImages(owner, dataset);
    for (const img of after) {
      const was = before.find((b) => b.id === img.id)!;
      const s = (await req('GET', `/v1/datasets/${dataset}/images/${img.id}/suggestions`, { cookie: owner.cookie })).json().data.suggestions;
      expect(s).toEqual([]);
      expect(img.labels.slice(0, was.labels.length)).toEqual(was.labels);
    }
    const added = after.reduce((k, i) => k + i.labels.length, 0) - before.reduce((k, i) => k + i.labels.length, 0);
    expect(added).toBe(job.boxes);
    // Per-class counts: the answer, the counts route and the realtime message agree.
    const countsAfter = (await req('GET', `/v1/datasets/${dataset}/class-counts`, { cookie: owner.cookie })).json().data;
    expect(accepted.json().data.counts).toEqual(countsAfter.counts);
    expect(Object.values(countsAfter.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      Object.values(countsBefore.counts as Record<string, number>).reduce((a, b) => a + b, 0) + job.boxes,
    );
    // On PostgreSQL the bus delivers through LISTEN/NOTIFY, after the answer: wait for it (10 s at most).
    const live = () => heard.filter((e) => e.topic === `dataset:${dataset}` && e.event === 'labels.updated');
    for (let waited = 0; !live().length && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    stop2();
    expect(live().at(-1)!.data).toMatchObject({ id: dataset, counts: countsAfter.counts });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'dataset.suggestions_accept'));
    expect(audit.some((a) => a.targetId === dataset)).toBe(true);
    expect((await req('GET', `/v1/datasets/${dataset}/review?filter=suggested`, { cookie: owner.cookie })).json().data.results).toEqual([]);
  }, 600_000);

  it('one image: accept one row, reject the rest; a second run replaces what is pending', async () => {
    const [img] = await allImages(owner, dataset);
    const run = async () => {
      const start = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie }, { modelId: model, imageIds: [img!.id], conf: 0.1 });
      expect(start.statusCode).toBe(202);
      await t.app.ctx.jobs.drain();
      return (await req('GET', `/v1/datasets/${dataset}/images/${img!.id}/suggestions`, { cookie: owner.cookie })).json().data.suggestions;
    };
    await run();
    const s = await run();
    expect(s).toHaveLength(1);
    const n = s[0].labels.length as number;
    expect(n).toBeGreaterThan(0);
    const labelsBefore = (await allImages(owner, dataset)).find((i) => i.id === img!.id)!.labels;
    const one = await req('POST', `/v1/datasets/${dataset}/suggestions/accept`, { cookie: owner.cookie }, { imageIds: [img!.id], indices: [0] });
    expect(one.json().data).toMatchObject({ images: 1, rows: 1 });
    const left = (await req('GET', `/v1/datasets/${dataset}/images/${img!.id}/suggestions`, { cookie: owner.cookie })).json().data.suggestions;
    expect(left[0]?.labels ?? []).toEqual(s[0].labels.slice(1));
    const rejected = await req('POST', `/v1/datasets/${dataset}/suggestions/reject`, { cookie: owner.cookie }, { imageIds: [img!.id] });
    expect(rejected.json().data).toMatchObject({ rows: n - 1 });
    const labelsAfter = (await allImages(owner, dataset)).find((i) => i.id === img!.id)!.labels;
    expect(labelsAfter).toEqual([...labelsBefore, s[0].labels[0]]);
    expect((await req('GET', `/v1/datasets/${dataset}/images/${img!.id}/suggestions`, { cookie: owner.cookie })).json().data.suggestions).toEqual([]);
  }, 300_000);

  it('class map: overrides by name, null leaves a class out, unknown names and nothing mapped are 422 with their codes', async () => {
    const start = await req(
      'POST',
      `/v1/datasets/${dataset}/prelabel`,
      { cookie: owner.cookie },
      { modelId: model, split: 'train', classMap: { red_square: 'green_circle', green_circle: null } },
    );
    expect(start.statusCode).toBe(202);
    expect(start.json().data.classMap).toEqual([
      { modelClass: 0, name: 'red_square', datasetClass: 1 },
      { modelClass: 1, name: 'green_circle', datasetClass: null },
      { modelClass: 2, name: 'blue_triangle', datasetClass: 2 },
    ]);
    await req('POST', `/v1/datasets/${dataset}/prelabel/${start.json().data.id}/cancel`, { cookie: owner.cookie });
    await t.app.ctx.jobs.drain();
    const unknown = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie }, { modelId: model, classMap: { red_square: 'nope' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.code).toBe('labelling/unknown-class');
    const none = await req(
      'POST',
      `/v1/datasets/${dataset}/prelabel`,
      { cookie: owner.cookie },
      { modelId: model, classMap: { red_square: null, green_circle: null, blue_triangle: null } },
    );
    expect(none.statusCode).toBe(422);
    expect(none.json().error.code).toBe('labelling/no-class-mapped');
    const both = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie }, { modelId: model, split: 'train', imageIds: ['x'] });
    expect(both.statusCode).toBe(400);
    const missing = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: owner.cookie }, { modelId: model, imageIds: ['nope'] });
    expect(missing.statusCode).toBe(404);
    const noImages = await req('POST', `/v1/datasets/${dataset}/suggestions/accept`, { cookie: owner.cookie }, {});
    expect(noImages.statusCode).toBe(400);
    const badCursor = await req('GET', `/v1/datasets/${dataset}/review?filter=unlabelled&cursor=zzz`, { cookie: owner.cookie });
    expect(badCursor.statusCode).toBe(400);
  }, 300_000);

  it('the labeler role labels a team dataset with their own model; a viewer may not; a labeler deletes nothing', async () => {
    const team = await buildTeam(t.app, owner.cookie, { meta: { name: 'Labelling' } });
    expect((await req('POST', `/v1/teams/${team.id}/items`, { cookie: owner.cookie }, { kind: 'dataset', id: dataset })).statusCode).toBe(200);
    const join = async (role: string) => {
      const u = await proUser();
      expect((await req('POST', `/v1/teams/${team.id}/invites`, { cookie: owner.cookie }, { email: u.email, role })).statusCode).toBeLessThan(300);
      expect((await req('POST', `/api_v1/teams/${team.id}/invite/accept`, { cookie: u.cookie })).statusCode).toBeLessThan(300);
      return u;
    };
    const labeler = await join('labeler');
    const viewer = await join('viewer');
    const [img] = await allImages(owner, dataset);
    // The labeler pre-labels with a model of their own; the owner's private model stays out of reach.
    const own = await uploadModel(labeler, 'shapes3-detect.onnx');
    await t.app.ctx.jobs.drain();
    const body = { modelId: own, imageIds: [img!.id] };
    expect((await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: labeler.cookie }, { ...body, modelId: model })).statusCode).toBe(404);
    const byLabeler = await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: labeler.cookie }, body);
    expect(byLabeler.statusCode, byLabeler.body).toBe(202);
    await t.app.ctx.jobs.drain();
    expect((await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: viewer.cookie }, body)).statusCode).toBe(403);
    expect((await req('POST', `/v1/datasets/${dataset}/suggestions/accept`, { cookie: viewer.cookie }, { all: true })).statusCode).toBe(403);
    expect((await req('POST', `/v1/datasets/${dataset}/suggestions/accept`, { cookie: labeler.cookie }, { all: true })).statusCode).toBe(200);
    expect((await req('DELETE', `/v1/datasets/${dataset}`, { cookie: labeler.cookie })).statusCode).toBe(403);
    // Others learn nothing of a private dataset.
    const stranger = await proUser();
    expect((await req('POST', `/v1/datasets/${dataset}/prelabel`, { cookie: stranger.cookie }, body)).statusCode).toBe(404);
  }, 300_000);
});
