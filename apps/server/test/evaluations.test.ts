import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyticsEvents, jobs } from '../src/platform/db/schema.js';
import type { DomainEvent } from '../src/platform/events/domain-events.js';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/** Evaluations over HTTP (ADR 0035): the job on the real engine and metrics, stored-result reuse, cancel, the matrix, bad input. */
let t: TestApp;
const events: DomainEvent[] = [];
beforeAll(async () => {
  t = await createTestApp();
  t.app.ctx.events.on(async (e) => void events.push(e));
});
afterAll(async () => {
  await t.close();
});

type H = Record<string, string>;
type User = Awaited<ReturnType<typeof buildUser>>;
const req = (method: 'GET' | 'POST', url: string, headers: H = {}, payload?: unknown) => t.app.inject({ method, url, headers, payload: payload as never });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function uploadModel(u: User, file: string, privacy?: string, fields: Record<string, string> = {}) {
  const mp = multipart({ model_name: path.basename(file), ...fields }, { filename: path.basename(file), content: fs.readFileSync(path.join(FIXTURES, file)) });
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
  expect(res.statusCode).toBe(201);
  const id = res.json().data.id as string;
  if (privacy) expect((await req('POST', `/v1/models/${id}/share`, { cookie: u.cookie }, { privacy })).statusCode).toBe(200);
  return id;
}

/** A processed dataset made the way the web app makes one: create, tus upload, process. */
async function readyDataset(u: User, zip = 'shapes3.zip', task = 'detect') {
  const d = (await req('POST', '/v1/datasets', { cookie: u.cookie }, { meta: { name: zip }, task })).json().data;
  const bytes = fs.readFileSync(path.join(FIXTURES, zip));
  const tok = (await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/${zip}`, bytes: bytes.length })).json()
    .data.token;
  const create = await req('POST', '/v1/uploads/tus', {
    cookie: u.cookie,
    'tus-resumable': '1.0.0',
    'upload-length': String(bytes.length),
    'upload-metadata': `token ${b64(tok)},filename ${b64(zip)}`,
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
  expect((await req('GET', `/v1/datasets/${d.id}`, { cookie: u.cookie })).json().data.status).toBe('Ready');
  return d.id as string;
}

const evaluate = (u: User, modelId: string, body: unknown) => req('POST', `/v1/models/${modelId}/evaluations`, { cookie: u.cookie }, body);

describe('evaluations', () => {
  let owner: User;
  let model: string;
  let dataset: string;
  beforeAll(async () => {
    owner = await buildUser(t.app);
    model = await uploadModel(owner, 'shapes3-detect.onnx');
    await t.app.ctx.jobs.drain();
    dataset = await readyDataset(owner);
  });

  it('runs as a job with progress to a stored result, mistakes with their images, an analytics event and a webhook event', async () => {
    const heard: Array<{ topic: string; event: string; data: { id: string; status?: string; done?: number; total?: number } }> = [];
    const stop = t.app.ctx.bus.subscribe((e) => void heard.push(e as never));
    const start = await evaluate(owner, model, { datasetId: dataset, split: 'test' });
    expect(start.statusCode).toBe(202);
    const queued = start.json().data;
    expect(queued).toMatchObject({ status: 'queued', split: 'test', dataset: { id: dataset, name: 'shapes3.zip' }, reused: false, result: null });
    expect(queued.progress.total).toBe(10);

    expect(await t.app.ctx.jobs.drain()).toBeGreaterThan(0);
    const done = (await req('GET', `/v1/evaluations/${queued.id}`, { cookie: owner.cookie })).json().data;
    expect(done.status).toBe('completed');
    expect(done.progress).toEqual({ done: 10, total: 10 });
    expect(done.classMap).toMatchObject({ unmappedDataset: [], unmappedModel: [], skippedLabels: 0 });
    expect(done.classMap.pairs.map((p: { name: string }) => p.name)).toEqual(['red_square', 'green_circle', 'blue_triangle']);
    expect(done.result.task).toBe('detect');
    expect(done.result.images).toBe(10);
    expect(done.result.box.mAP50).toBeGreaterThan(0.9);
    expect(done.result.confusionMatrix.matrix).toHaveLength(4); // three classes and the background
    // Live on the model's topic: the status as it moves, and progress up to the last image.
    await vi.waitFor(() => {
      const mine = heard.filter((e) => e.topic === `model:${model}` && e.data?.id === queued.id);
      expect(mine.filter((e) => e.event === 'evaluation.updated').map((e) => e.data.status)).toEqual(['queued', 'running', 'completed']);
      expect(mine.filter((e) => e.event === 'evaluation.progress').at(-1)?.data).toMatchObject({ done: 10, total: 10 });
    });
    stop();

    const list = (await req('GET', `/v1/models/${model}/evaluations`, { cookie: owner.cookie })).json().data;
    expect(list.map((e: { id: string }) => e.id)).toContain(queued.id);

    // Mistakes: every kind answers, each entry carries its dataset image with a signed link.
    for (const kind of ['fp', 'fn', 'wrong']) {
      const res = await req('GET', `/v1/evaluations/${queued.id}/mistakes?kind=${kind}`, { cookie: owner.cookie });
      expect(res.statusCode).toBe(200);
      const body = res.json().data;
      expect(body.datasetClassNames).toEqual(['red_square', 'green_circle', 'blue_triangle']);
      const confidences = body.results.map((m: { confidence: number }) => m.confidence);
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
      for (const m of body.results) {
        expect(m.kind).toBe(kind);
        expect(m.image.url).toContain(`/v1/datasets/${dataset}/images/${m.image.id}/raw`);
        if (kind !== 'fn') expect(m.prediction.box).toHaveLength(4);
      }
    }
    // At conf 0.001 a near-perfect model still leaves confident-enough false positives or misses somewhere; the lists are real rows.
    const fp = (await req('GET', `/v1/evaluations/${queued.id}/mistakes?kind=fp&limit=3`, { cookie: owner.cookie })).json().data.results;
    expect(fp.length).toBeLessThanOrEqual(3);

    const names = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, owner.user.id))).map((e) => e.name);
    expect(names).toContain('evaluate_model');
    const evaluated = events.find((e) => e.name === 'model.evaluated' && (e.data.evaluation as { id: string }).id === queued.id);
    expect(evaluated?.ownerId).toBe(owner.user.id);
    expect(evaluated?.data).toMatchObject({ model: { id: model }, dataset: { id: dataset } });
  });

  it('answers the stored result for the same model, dataset and split with the same files, without a new job', async () => {
    const first = await evaluate(owner, model, { datasetId: dataset, split: 'test' });
    expect(first.statusCode).toBe(200);
    const body = first.json().data;
    expect(body).toMatchObject({ status: 'completed', reused: true });
    expect(body.result.box.mAP50).toBeGreaterThan(0.9);
    const queuedJobs = await t.database.db.select().from(jobs).where(eq(jobs.queue, 'evaluation.run'));
    expect(queuedJobs.filter((j) => j.status !== 'done')).toHaveLength(0);
    // The same files under another model are another evaluation.
    const copy = await uploadModel(owner, 'shapes3-detect.onnx');
    await t.app.ctx.jobs.drain();
    const other = await evaluate(owner, copy, { datasetId: dataset, split: 'test' });
    expect(other.statusCode).toBe(202);
    expect(other.json().data.id).not.toBe(body.id);
  });

  it('cancels a queued evaluation for good; a finished one answers 409', async () => {
    const start = (await evaluate(owner, model, { datasetId: dataset, split: 'val' })).json().data;
    expect(start.status).toBe('queued');
    const again = await evaluate(owner, model, { datasetId: dataset, split: 'val' });
    expect(again.statusCode).toBe(202);
    expect(again.json().data.id).toBe(start.id); // the one on its way, not a second job
    const cancel = await req('POST', `/v1/evaluations/${start.id}/cancel`, { cookie: owner.cookie });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data.status).toBe('cancelled');
    await t.app.ctx.jobs.drain();
    expect((await req('GET', `/v1/evaluations/${start.id}`, { cookie: owner.cookie })).json().data).toMatchObject({ status: 'cancelled', result: null });
    const twice = await req('POST', `/v1/evaluations/${start.id}/cancel`, { cookie: owner.cookie });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('error/job-finished');
    // Cancelled is not reused: asking again starts anew.
    const fresh = await evaluate(owner, model, { datasetId: dataset, split: 'val' });
    expect(fresh.statusCode).toBe(202);
    expect(fresh.json().data.id).not.toBe(start.id);
    const stop = await req('POST', `/v1/evaluations/${fresh.json().data.id}/cancel`, { cookie: owner.cookie });
    expect(stop.statusCode).toBe(200);
  });

  it('stops a running evaluation at its next progress step when cancelled', async () => {
    const start = (await evaluate(owner, model, { datasetId: dataset, split: 'train' })).json().data;
    const draining = t.app.ctx.jobs.drain();
    await vi.waitFor(async () => expect((await req('GET', `/v1/evaluations/${start.id}`, { cookie: owner.cookie })).json().data.status).toBe('running'), {
      timeout: 20_000,
      interval: 10,
    });
    const cancel = await req('POST', `/v1/evaluations/${start.id}/cancel`, { cookie: owner.cookie });
    expect(cancel.statusCode).toBe(200);
    await draining;
    const after = (await req('GET', `/v1/evaluations/${start.id}`, { cookie: owner.cookie })).json().data;
    expect(after).toMatchObject({ status: 'cancelled', result: null });
    expect(after.progress.done).toBeLessThan(after.progress.total);
    expect(events.some((e) => e.name === 'model.evaluated' && (e.data.evaluation as { id: string }).id === start.id)).toBe(false);
  });

  it('needs read on both the model and the dataset (the permission matrix): 404 otherwise, 401 signed out', async () => {
    const other = await buildUser(t.app);
    const done = (await evaluate(owner, model, { datasetId: dataset, split: 'test' })).json().data;
    // Another user's private model, dataset and evaluation do not exist for them.
    expect((await evaluate(other, model, { datasetId: dataset, split: 'test' })).statusCode).toBe(404);
    expect((await req('GET', `/v1/evaluations/${done.id}`, { cookie: other.cookie })).statusCode).toBe(404);
    expect((await req('GET', `/v1/evaluations/${done.id}/mistakes?kind=fp`, { cookie: other.cookie })).statusCode).toBe(404);
    expect((await req('POST', `/v1/evaluations/${done.id}/cancel`, { cookie: other.cookie })).statusCode).toBe(404);
    expect((await req('GET', `/v1/models/${model}/evaluations`, { cookie: other.cookie })).statusCode).toBe(404);
    expect((await req('POST', `/v1/models/${model}/evaluations`, {}, { datasetId: dataset, split: 'test' })).statusCode).toBe(401);
    // Their own model on the owner's private dataset: the dataset is not readable.
    const theirs = await uploadModel(other, 'shapes3-detect.onnx');
    await t.app.ctx.jobs.drain();
    expect((await evaluate(other, theirs, { datasetId: dataset, split: 'test' })).statusCode).toBe(404);
    // Public model and public dataset: reading is enough to evaluate, and the evaluation shows to whoever reads both.
    await req('POST', `/v1/models/${model}/share`, { cookie: owner.cookie }, { privacy: 'public' });
    expect((await req('GET', `/v1/evaluations/${done.id}`, { cookie: other.cookie })).statusCode).toBe(404);
    await req('POST', `/v1/datasets/${dataset}/share`, { cookie: owner.cookie }, { privacy: 'public' });
    expect((await req('GET', `/v1/evaluations/${done.id}`, { cookie: other.cookie })).statusCode).toBe(200);
    const theirRun = await evaluate(other, model, { datasetId: dataset, split: 'test' });
    expect(theirRun.statusCode).toBe(200); // the same files: the stored result
    await req('POST', `/v1/models/${model}/share`, { cookie: owner.cookie }, { privacy: 'private' });
    await req('POST', `/v1/datasets/${dataset}/share`, { cookie: owner.cookie }, { privacy: 'private' });
  });

  it("compares the project's models: the newest completed evaluation of each per dataset split", async () => {
    const a = await uploadModel(owner, 'shapes3-detect.onnx', undefined, { project_name: 'Compare' });
    const projectId = (await req('GET', `/v1/models/${a}`, { cookie: owner.cookie })).json().data.project.id as string;
    const b = await uploadModel(owner, 'shapes3-detect.onnx', undefined, { project_id: projectId });
    await t.app.ctx.jobs.drain();
    for (const m of [a, b]) expect((await evaluate(owner, m, { datasetId: dataset, split: 'test' })).statusCode).toBe(202);
    await t.app.ctx.jobs.drain();
    const res = await req('GET', `/v1/projects/${projectId}/evaluations`, { cookie: owner.cookie });
    expect(res.statusCode).toBe(200);
    const results = res.json().data.results as Array<{ modelId: string; modelName: string; status: string; result: { box: { mAP50: number } } }>;
    expect(results.map((r) => r.modelId).sort()).toEqual([a, b].sort());
    for (const r of results) {
      expect(r.status).toBe('completed');
      expect(r.modelName).toBe('shapes3-detect.onnx');
      expect(r.result.box.mAP50).toBeGreaterThan(0.9);
    }
    const stranger = await buildUser(t.app);
    expect((await req('GET', `/v1/projects/${projectId}/evaluations`, { cookie: stranger.cookie })).statusCode).toBe(404);
  });

  it('scores segment models with mask metrics and classifiers with top-1/top-5, classes matched by name', async () => {
    const seg = await uploadModel(owner, 'shapes3-seg.onnx');
    const cls = await uploadModel(owner, 'shapes3-cls.onnx');
    const clsData = await readyDataset(owner, 'shapes3-cls.zip', 'classify');
    await t.app.ctx.jobs.drain();
    const a = (await evaluate(owner, seg, { datasetId: dataset, split: 'test' })).json().data;
    const b = (await evaluate(owner, cls, { datasetId: clsData, split: 'test' })).json().data;
    await t.app.ctx.jobs.drain();
    const segDone = (await req('GET', `/v1/evaluations/${a.id}`, { cookie: owner.cookie })).json().data;
    expect(segDone.status).toBe('completed');
    expect(segDone.result.task).toBe('segment');
    expect(segDone.result.mask.mAP50).toBeGreaterThan(0.5);
    const clsDone = (await req('GET', `/v1/evaluations/${b.id}`, { cookie: owner.cookie })).json().data;
    expect(clsDone.status).toBe('completed');
    expect(clsDone.result.task).toBe('classify');
    // Classes meet by name, whatever order the dataset and the model list them in.
    expect(clsDone.classMap.pairs).toHaveLength(3);
    expect(clsDone.result.images).toBe(clsDone.progress.total);
    expect(clsDone.result.top1).toBeGreaterThan(0.8);
    expect(clsDone.headline).toEqual({ name: 'top1', value: clsDone.result.top1 });
    const wrong = (await req('GET', `/v1/evaluations/${b.id}/mistakes?kind=wrong`, { cookie: owner.cookie })).json().data.results;
    expect(wrong.length).toBe(clsDone.result.images - Math.round(clsDone.result.top1 * clsDone.result.images));
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await req('GET', '/v1/docs/json')).json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    for (const [p, method] of [
      ['/v1/models/{id}/evaluations', 'post'],
      ['/v1/models/{id}/evaluations', 'get'],
      ['/v1/evaluations/{id}', 'get'],
      ['/v1/evaluations/{id}/cancel', 'post'],
      ['/v1/evaluations/{id}/mistakes', 'get'],
      ['/v1/projects/{id}/evaluations', 'get'],
    ] as const) {
      expect(doc.paths[p]?.[method]?.tags, `${method} ${p}`).toEqual(['evaluations']);
    }
  });

  it('answers bad input with a clear 4xx', async () => {
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ datasetId: dataset }, 400],
      [{ datasetId: dataset, split: 'holdout' }, 400],
      [{ datasetId: dataset, split: 'test', extra: 1 }, 400],
      [{ datasetId: 'x'.repeat(41), split: 'test' }, 400],
      [{ datasetId: 'nope', split: 'test' }, 404],
    ];
    for (const [body, status] of cases) expect((await evaluate(owner, model, body)).statusCode, JSON.stringify(body)).toBe(status);
    expect((await evaluate(owner, 'nope', { datasetId: dataset, split: 'test' })).statusCode).toBe(404);
    expect((await req('GET', '/v1/evaluations/nope')).statusCode).toBe(404);
    const done = (await evaluate(owner, model, { datasetId: dataset, split: 'test' })).json().data;
    expect((await req('GET', `/v1/evaluations/${done.id}/mistakes?kind=maybe`, { cookie: owner.cookie })).statusCode).toBe(400);
    expect((await req('GET', `/v1/evaluations/${done.id}/mistakes?kind=fp&limit=0`, { cookie: owner.cookie })).statusCode).toBe(400);

    // A model with no ONNX file, a dataset not processed, a classifier on a detection dataset.
    const created = await req('POST', '/v1/models', { cookie: owner.cookie }, { meta: { name: 'empty' } });
    expect(created.statusCode).toBe(201);
    const noOnnx = await evaluate(owner, created.json().data.id, { datasetId: dataset, split: 'test' });
    expect(noOnnx.statusCode).toBe(409);
    expect(noOnnx.json().error.code).toBe('error/no-onnx');
    const raw = (await req('POST', '/v1/datasets', { cookie: owner.cookie }, { meta: { name: 'raw' }, task: 'detect' })).json().data.id;
    const notReady = await evaluate(owner, model, { datasetId: raw, split: 'test' });
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().error.code).toBe('error/dataset-not-ready');
    const cls = await uploadModel(owner, 'shapes3-cls.onnx');
    await t.app.ctx.jobs.drain();
    expect((await evaluate(owner, cls, { datasetId: dataset, split: 'test' })).statusCode).toBe(422);
  });
});
