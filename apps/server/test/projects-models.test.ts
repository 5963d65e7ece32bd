import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyticsEvents, modelExports, models as modelsTable, users } from '../src/platform/db/schema.js';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildModel, buildProject, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as never });
const as = (cookie: string) => ({ cookie });

async function uploadModel(cookie: string, fields: Record<string, string>, file: string, filename = path.basename(file)) {
  const mp = multipart(fields, { filename, content: fs.readFileSync(file) });
  return t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
}

describe('projects', () => {
  it('defaults: name Untitled, private, slug unique per owner', async () => {
    const u = await buildUser(t.app);
    const p1 = await buildProject(t.app, u.cookie);
    expect(p1.meta).toEqual({ name: 'Untitled', description: '', privacy: 'private' });
    expect(p1.owner.uid).toBe(u.user.id);
    expect(p1.abilities).toEqual({ canEdit: true, canDelete: true, canShare: true });
    const p2 = await buildProject(t.app, u.cookie);
    expect(p1.slug).toBe('untitled');
    expect(p2.slug).toBe('untitled-2');
  });

  it('projects, models and datasets created in parallel with one name all succeed with distinct slugs', async () => {
    const u = await buildUser(t.app);
    const n = 8;
    const projects = await Promise.all(Array.from({ length: n }, () => req('POST', '/v1/projects', as(u.cookie), { meta: { name: 'Race' } })));
    const models = await Promise.all(Array.from({ length: n }, () => req('POST', '/v1/models', as(u.cookie), { meta: { name: 'Race' } })));
    const datasets = await Promise.all(Array.from({ length: n }, () => req('POST', '/v1/datasets', as(u.cookie), { meta: { name: 'Race' }, task: 'detect' })));
    for (const batch of [projects, models, datasets]) {
      expect(batch.map((r) => r.statusCode)).toEqual(Array(n).fill(201));
      expect(new Set(batch.map((r) => r.json().data.slug)).size).toBe(n);
    }
  });

  it('edits name and description; records analytics', async () => {
    const u = await buildUser(t.app);
    const p = await buildProject(t.app, u.cookie, { meta: { name: 'Cats', description: 'all the cats' } });
    const res = await req('PATCH', `/v1/projects/${p.id}`, as(u.cookie), { meta: { name: 'Dogs' } });
    expect(res.json().data.meta.name).toBe('Dogs');
    const names = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id))).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['create_project', 'update_project']));
  });

  it('privacy change propagates to all its models', async () => {
    const u = await buildUser(t.app);
    const p = await buildProject(t.app, u.cookie);
    const m1 = await buildModel(t.app, u.cookie, { project: { id: p.id } });
    const m2 = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'second' } });
    const res = await req('POST', `/v1/projects/${p.id}/share`, as(u.cookie), { privacy: 'public' });
    expect(res.json().data.meta.privacy).toBe('public');
    for (const m of [m1, m2]) expect((await req('GET', `/v1/models/${m.id}`, as(u.cookie))).json().data.meta.privacy).toBe('public');
  });

  it('delete cascades to its models; restore brings them back; trash lists both', async () => {
    const u = await buildUser(t.app);
    const p = await buildProject(t.app, u.cookie, { meta: { name: 'Doomed' } });
    const m = await buildModel(t.app, u.cookie, { project: { id: p.id } });
    const alreadyDeleted = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'gone before' } });
    await req('DELETE', `/v1/models/${alreadyDeleted.id}`, as(u.cookie));
    expect((await req('DELETE', `/v1/projects/${p.id}`, as(u.cookie))).statusCode).toBe(200);
    const list = (await req('GET', '/v1/projects', as(u.cookie))).json().data.results;
    expect(list.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await req('GET', `/v1/models/${m.id}`, as(u.cookie))).json().data.dates.deleted).not.toBeNull();
    const trash = (await req('GET', '/v1/trash', as(u.cookie))).json().data.items;
    expect(trash.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([p.id, m.id, alreadyDeleted.id]));
    const item = trash.find((i: { id: string }) => i.id === p.id);
    expect(new Date(item.expires).getTime() - new Date(item.deleted).getTime()).toBe(30 * 86_400_000);
    // restoring a model of a deleted project asks for the project first
    expect((await req('POST', `/v1/trash/model/${m.id}/restore`, as(u.cookie))).json().error.code).toBe('error/parent-deleted');
    expect((await req('POST', `/v1/trash/project/${p.id}/restore`, as(u.cookie))).statusCode).toBe(200);
    expect((await req('GET', `/v1/models/${m.id}`, as(u.cookie))).json().data.dates.deleted).toBeNull();
    // the model deleted on its own stays in the trash
    expect((await req('GET', `/v1/models/${alreadyDeleted.id}`, as(u.cookie))).json().data.dates.deleted).not.toBeNull();
  });

  it('orders project models by order when any has one, else most recently updated first', async () => {
    const u = await buildUser(t.app);
    const p = await buildProject(t.app, u.cookie);
    const a = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'a' } });
    t.clock.advance(1000);
    const b = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'b' } });
    t.clock.advance(1000);
    const c = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'c' } });
    const ids = async () => (await req('GET', `/v1/projects/${p.id}/models`, as(u.cookie))).json().data.map((m: { id: string }) => m.id);
    expect(await ids()).toEqual([c.id, b.id, a.id]);
    expect((await req('PUT', `/v1/projects/${p.id}/order`, as(u.cookie), { modelIds: [b.id, a.id, c.id] })).statusCode).toBe(200);
    expect(await ids()).toEqual([b.id, a.id, c.id]);
    const orders = (await req('GET', `/v1/projects/${p.id}/models`, as(u.cookie))).json().data.map((m: { order: number }) => m.order);
    expect(orders).toEqual([1, 2, 3]);
    const other = await buildUser(t.app);
    expect((await req('PUT', `/v1/projects/${p.id}/order`, as(other.cookie), { modelIds: [a.id] })).statusCode).toBe(404);
    expect((await req('PUT', `/v1/projects/${p.id}/order`, as(u.cookie), { modelIds: ['x'.repeat(20)] })).statusCode).toBe(400);
  });

  it('transfers a model to another of my projects, not to someone else’s', async () => {
    const u = await buildUser(t.app);
    const p1 = await buildProject(t.app, u.cookie);
    const p2 = await buildProject(t.app, u.cookie, { meta: { name: 'target' } });
    const m = await buildModel(t.app, u.cookie, { project: { id: p1.id } });
    const res = await req('POST', `/v1/models/${m.id}/transfer`, as(u.cookie), { projectId: p2.id });
    expect(res.json().data.project).toEqual({ id: p2.id, name: 'target' });
    const other = await buildUser(t.app);
    const theirs = await buildProject(t.app, other.cookie);
    expect((await req('POST', `/v1/models/${m.id}/transfer`, as(u.cookie), { projectId: theirs.id })).statusCode).toBe(404);
  });
});

describe('models', () => {
  it('a new model gets the spec defaults', async () => {
    const u = await buildUser(t.app);
    const m = await buildModel(t.app, u.cookie, {});
    expect(m.meta).toMatchObject({ name: 'Unnamed Model', privacy: 'private' });
    expect(m.config).toMatchObject({ batchSize: -1, epochs: 300, imageSize: 640, patience: 100, cache: null, time: null });
    expect(m.status).toBe('new');
    expect(m.dates.train).toEqual({ start: null, end: null, heartbeat: null, initialized: null });
    expect(m.id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('anonymous creation fails with Missing Required Properties naming owner', async () => {
    const res = await req('POST', '/v1/models', {}, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'error/missing-required-properties', message: 'Missing Required Properties: owner' });
  });

  it('keeps lineage, dataset reference and advanced config', async () => {
    const u = await buildUser(t.app);
    const m = await buildModel(t.app, u.cookie, {
      lineage: { architecture: { id: 'yolo11n', name: 'YOLO11n' }, parent: { name: 'yolo11n.pt' } },
      dataset: { name: 'coco8.yaml' },
      config: { epochs: 10, advanced: { lr0: 0.02 } },
    });
    expect(m.lineage.architecture).toEqual({ id: 'yolo11n', name: 'YOLO11n' });
    expect(m.lineage.parent.name).toBe('yolo11n.pt');
    expect(m.dataset.name).toBe('coco8.yaml');
    expect(m.config).toMatchObject({ epochs: 10, advanced: { lr0: 0.02 } });
    const bad = await req('POST', '/v1/models', as(u.cookie), { config: { epochs: 0 } });
    expect(bad.statusCode).toBe(400);
  });

  it('hub-sdk list shape with keyset pagination', async () => {
    const u = await buildUser(t.app);
    for (let i = 0; i < 5; i++) {
      await buildModel(t.app, u.cookie, { meta: { name: `m${i}` } });
      t.clock.advance(10);
    }
    const first = (await req('GET', '/v1/models?limit=2', as(u.cookie))).json().data;
    expect(first.total).toBe(5);
    expect(first.results).toHaveLength(2);
    const second = (await req('GET', `/v1/models?limit=2&last_doc_id=${first.lastRecordId}`, as(u.cookie))).json().data;
    expect(second.results.map((m: { meta: { name: string } }) => m.meta.name)).toEqual(['m2', 'm1']);
  });

  it('uploads the fixture .onnx: reads metadata, Trained, counted in storage and project totals', async () => {
    const u = await buildUser(t.app);
    const p = await buildProject(t.app, u.cookie, { meta: { name: 'uploads' } });
    const res = await uploadModel(u.cookie, { model_name: 'shapes', project_id: p.id, project_name: '' }, path.join(FIXTURES, 'shapes3-detect.onnx'));
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    const m = (await req('GET', `/v1/models/${id}`, as(u.cookie))).json().data;
    const size = fs.statSync(path.join(FIXTURES, 'shapes3-detect.onnx')).size;
    expect(m).toMatchObject({ task: 'detect', names: ['red_square', 'green_circle', 'blue_triangle'], status: 'trained' });
    expect(m.dates.train.end).not.toBeNull();
    expect(m.totals.bytes).toBe(size);
    expect(m.files[0]).toMatchObject({ kind: 'onnx', name: 'shapes3-detect.onnx', bytes: size });
    const dl = await t.app.inject({ method: 'GET', url: m.files[0].url });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.length).toBe(size);
    const project = (await req('GET', `/v1/projects/${p.id}`, as(u.cookie))).json().data;
    expect(project.totals).toEqual({ models: 1, bytes: size });
    // uploaded weights are not exports: the project's Exports card counts what export jobs made
    expect(project.models.exports).toEqual({});
    // once an export job has made the ONNX file, it counts
    await t.database.db.insert(modelExports).values({ id: `ex-${id}`, modelId: id, userId: u.user.id, format: 'onnx', status: 'succeeded', bytes: size });
    expect((await req('GET', `/v1/projects/${p.id}`, as(u.cookie))).json().data.models.exports).toEqual({ onnx: size });
  });

  it('uploads the fixture .pt into a new project named by project_name', async () => {
    const u = await buildUser(t.app);
    const res = await uploadModel(u.cookie, { model_name: 'pt model', project_id: '', project_name: 'From Upload' }, path.join(FIXTURES, 'shapes3-cls.pt'));
    expect(res.statusCode).toBe(201);
    const m = (await req('GET', `/v1/models/${res.json().data.id}`, as(u.cookie))).json().data;
    expect(m.project.name).toBe('From Upload');
    expect(m.files[0].kind).toBe('best');
  });

  it('rejects a renamed text file, and a file bigger than the storage left, keeping nothing', async () => {
    const u = await buildUser(t.app);
    const mp = multipart({ model_name: 'fake' }, { filename: 'weights.pt', content: Buffer.from('this is not a model, just text\n'.repeat(10)) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('error/invalid-model-file');
    const wrongExt = multipart({}, { filename: 'weights.txt', content: Buffer.from('x') });
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...wrongExt.headers, cookie: u.cookie }, payload: wrongExt.payload }))
        .statusCode,
    ).toBe(400);

    // fill the storage (free plan: 20 GB) with a fake accounting row, leaving 1 kB
    await t.database.db.update(users).set({ plan: 'free' }).where(eq(users.id, u.user.id));
    await buildModel(t.app, u.cookie, { meta: { name: 'filler' } });
    await t.database.db
      .update(modelsTable)
      .set({ bytes: 20 * 1024 ** 3 - 1024 })
      .where(eq(modelsTable.userId, u.user.id));
    const big = await uploadModel(u.cookie, { model_name: 'too big' }, path.join(FIXTURES, 'shapes3-detect.onnx'));
    expect(big.statusCode).toBe(403);
    expect(big.json().error).toMatchObject({ code: 'InsufficientStorageError', details: { available: 1024 } });
    const list = (await req('GET', '/v1/models', as(u.cookie))).json().data.results;
    expect(list.map((m: { meta: { name: string } }) => m.meta.name)).toEqual(['filler']);
    const blobs = [];
    for await (const b of t.app.ctx.blobs.list(`users/${u.user.id}/models/`)) blobs.push(b);
    expect(blobs).toHaveLength(0);
  });
});

describe('trash', () => {
  it('delete permanently, empty trash (empty_trash), and the 30-day purge', async () => {
    const u = await buildUser(t.app);
    const up = await uploadModel(u.cookie, { model_name: 'to purge', project_name: 'purge me' }, path.join(FIXTURES, 'shapes3-cls.onnx'));
    const id = up.json().data.id;
    const m = (await req('GET', `/v1/models/${id}`, as(u.cookie))).json().data;
    await req('DELETE', `/v1/models/${id}`, as(u.cookie));
    expect(await t.app.ctx.blobs.head(`users/${u.user.id}/models/${id}/model.onnx`)).not.toBeNull();
    // 29 days: still there
    t.clock.advance(29 * 86_400_000);
    await t.app.ctx.jobs.enqueue('trash.purge', {});
    await t.app.ctx.jobs.drain();
    expect((await req('GET', '/v1/trash', as(u.cookie))).json().data.items.map((i: { id: string }) => i.id)).toContain(id);
    // 31 days: gone, blobs too
    t.clock.advance(2 * 86_400_000);
    await t.app.ctx.jobs.enqueue('trash.purge', {});
    await t.app.ctx.jobs.drain();
    t.clock.advance(-31 * 86_400_000);
    expect((await req('GET', '/v1/trash', as(u.cookie))).json().data.items.map((i: { id: string }) => i.id)).not.toContain(id);
    expect(await t.app.ctx.blobs.head(`users/${u.user.id}/models/${id}/model.onnx`)).toBeNull();
    expect((await req('GET', `/v1/models/${m.id}`, as(u.cookie))).statusCode).toBe(404);

    const p = await buildProject(t.app, u.cookie, { meta: { name: 'bin' } });
    await buildModel(t.app, u.cookie, { project: { id: p.id } });
    await req('DELETE', `/v1/projects/${p.id}`, as(u.cookie));
    const notTrashed = await buildModel(t.app, u.cookie, {});
    expect((await req('DELETE', `/v1/trash/model/${notTrashed.id}`, as(u.cookie))).json().error.code).toBe('error/not-in-trash');
    const emptied = await req('DELETE', '/v1/trash', as(u.cookie));
    expect(emptied.json().data.removed).toBeGreaterThan(0);
    expect((await req('GET', '/v1/trash', as(u.cookie))).json().data.items).toEqual([]);
    const names = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id))).map((e) => e.name);
    expect(names).toContain('empty_trash');
  });
});

describe('authorization matrix: owner / other / anonymous × private / unlisted / public', () => {
  const cases = ['private', 'unlisted', 'public'] as const;
  it.each(cases)('%s project and model', async (privacy) => {
    const owner = await buildUser(t.app);
    const other = await buildUser(t.app);
    const p = await buildProject(t.app, owner.cookie, { meta: { name: `p-${privacy}`, privacy } });
    const up = await uploadModel(owner.cookie, { model_name: `m-${privacy}`, project_id: p.id }, path.join(FIXTURES, 'shapes3-cls.onnx'));
    const mid = up.json().data.id;
    const readable = privacy !== 'private';
    const viewers: Array<[string, Headers]> = [
      ['other', as(other.cookie)],
      ['anonymous', {}],
    ];
    // owner can do everything
    expect((await req('GET', `/v1/projects/${p.id}`, as(owner.cookie))).statusCode).toBe(200);
    expect((await req('GET', `/v1/models/${mid}`, as(owner.cookie))).json().data.abilities.canEdit).toBe(true);
    for (const [who, h] of viewers) {
      const ctxMsg = `${who} on ${privacy}`;
      const proj = await req('GET', `/v1/projects/${p.id}`, h);
      expect(proj.statusCode, ctxMsg).toBe(readable ? 200 : 404);
      const model = await req('GET', `/v1/models/${mid}`, h);
      expect(model.statusCode, ctxMsg).toBe(readable ? 200 : 404);
      if (readable) {
        expect(model.json().data.abilities, ctxMsg).toEqual({ canEdit: false, canDelete: false, canShare: false });
        const dl = await t.app.inject({ method: 'GET', url: model.json().data.files[0].url });
        expect(dl.statusCode, ctxMsg).toBe(200);
      }
      const models = await req('GET', `/v1/projects/${p.id}/models`, h);
      expect(models.statusCode, ctxMsg).toBe(readable ? 200 : 404);
      // listing: only public projects are listed to others
      const listed = (await req('GET', '/v1/projects?public=true', h)).json().data.results.map((x: { id: string }) => x.id);
      expect(listed.includes(p.id), ctxMsg).toBe(privacy === 'public');
      // writes are refused
      const expectedWrite = who === 'anonymous' ? 401 : readable ? 403 : 404;
      expect((await req('PATCH', `/v1/projects/${p.id}`, h, { meta: { name: 'hacked' } })).statusCode, ctxMsg).toBe(expectedWrite);
      expect((await req('PATCH', `/v1/models/${mid}`, h, { meta: { name: 'hacked' } })).statusCode, ctxMsg).toBe(expectedWrite);
      expect((await req('POST', `/v1/projects/${p.id}/share`, h, { privacy: 'private' })).statusCode, ctxMsg).toBe(expectedWrite);
      expect((await req('DELETE', `/v1/projects/${p.id}`, h)).statusCode, ctxMsg).toBe(expectedWrite);
      expect((await req('DELETE', `/v1/models/${mid}`, h)).statusCode, ctxMsg).toBe(who === 'anonymous' ? 401 : 404);
    }
    // others' lists never include the owner's items
    const otherList = (await req('GET', '/v1/models', as(other.cookie))).json().data.results;
    expect(otherList.map((m: { id: string }) => m.id)).not.toContain(mid);
    expect((await req('GET', `/v1/projects/${p.id}`, as(owner.cookie))).json().data.meta.name).toBe(`p-${privacy}`);
  });

  it('a private model inside an unlisted project is readable through the project (spec §6)', async () => {
    const owner = await buildUser(t.app);
    const other = await buildUser(t.app);
    const p = await buildProject(t.app, owner.cookie, { meta: { privacy: 'unlisted' } });
    const m = await buildModel(t.app, owner.cookie, { project: { id: p.id }, meta: { privacy: 'private' } });
    expect((await req('GET', `/v1/models/${m.id}`, as(other.cookie))).statusCode).toBe(200);
    await req('POST', `/v1/projects/${p.id}/share`, as(owner.cookie), { privacy: 'private' });
    expect((await req('GET', `/v1/models/${m.id}`, as(other.cookie))).statusCode).toBe(404);
  });
});
