import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildModel, buildProject, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function upload(cookie: string, projectId: string, name: string) {
  const file = path.join(FIXTURES, 'shapes3-detect.onnx');
  const mp = multipart({ project_id: projectId, model_name: name }, { filename: 'w.onnx', content: fs.readFileSync(file) });
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

describe('trash sizes (a model is counted once, never twice with its project)', () => {
  it('a project counts the models deleted with it; a model deleted before its project counts once, on its own row', async () => {
    const u = await buildUser(t.app);
    const h = { cookie: u.cookie };
    const p = await buildProject(t.app, h, { meta: { name: 'P' } });
    const alone = await upload(u.cookie, p.id, 'alone');
    await upload(u.cookie, p.id, 'with-project');
    const size = fs.statSync(path.join(FIXTURES, 'shapes3-detect.onnx')).size;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/models/${alone}`, headers: h })).statusCode).toBeLessThan(300);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: h })).statusCode).toBeLessThan(300);
    const items = (await t.app.inject({ method: 'GET', url: '/v1/trash', headers: h })).json().data.items as Array<{
      type: string;
      name: string;
      bytes: number;
      parent: unknown;
    }>;
    const project = items.find((i) => i.type === 'project')!;
    const single = items.find((i) => i.name === 'alone')!;
    const withProject = items.find((i) => i.name === 'with-project')!;
    expect(single.parent).toBeNull();
    expect(withProject.parent).not.toBeNull();
    expect(single.bytes).toBeGreaterThanOrEqual(size);
    expect(project.bytes).toBeGreaterThanOrEqual(withProject.bytes);
    expect(project.bytes).toBeLessThan(withProject.bytes + single.bytes);
    // what the page adds up: rows without a parent
    const total = items.filter((i) => !i.parent).reduce((s, i) => s + i.bytes, 0);
    expect(total).toBe(project.bytes + single.bytes);
  });
});

describe('trash pages (keyset, ADR 0042)', () => {
  it('pages of any size add up to the whole trash, newest deletion first, the first with the totals; a bad cursor is a 400', async () => {
    const u = await buildUser(t.app);
    const h = { cookie: u.cookie };
    const del = async (url: string) => expect((await t.app.inject({ method: 'DELETE', url, headers: h })).statusCode).toBeLessThan(300);
    const p = await buildProject(t.app, h, { meta: { name: 'P' } });
    const inProject = await upload(u.cookie, p.id, 'in-project');
    for (let i = 0; i < 3; i++) await del(`/v1/datasets/${(await buildDataset(t.app, h, { meta: { name: `d${i}` }, task: 'detect' })).id}`);
    // Same deletion time for these two: the id decides their order, and no page repeats or skips one.
    for (let i = 0; i < 2; i++) await del(`/v1/models/${(await buildModel(t.app, h, { meta: { name: `m${i}` } })).id}`);
    t.clock.advance(1000);
    await del(`/v1/projects/${p.id}`);
    t.clock.advance(1000);
    await del(`/v1/datasets/${(await buildDataset(t.app, h, { meta: { name: 'last' }, task: 'detect' })).id}`);

    const page = async (limit: number, cursor?: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/trash?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, headers: h });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as {
        items: Array<{ id: string; name: string; deleted: string; bytes: number; parent: { name: string } | null }>;
        nextCursor: string | null;
        count: number | null;
        bytes: number | null;
      };
    };
    const whole = await page(100);
    expect(whole.nextCursor).toBeNull();
    expect(whole.items).toHaveLength(8);
    expect(whole.count).toBe(8);
    expect(whole.bytes).toBe(whole.items.filter((i) => !i.parent).reduce((s, i) => s + i.bytes, 0));
    const order = [...whole.items].sort((a, b) => b.deleted.localeCompare(a.deleted) || (a.id < b.id ? 1 : -1));
    expect(whole.items.map((i) => i.id)).toEqual(order.map((i) => i.id));
    expect(whole.items[0]!.name).toBe('last');
    expect(whole.items.find((i) => i.id === inProject)!.parent?.name).toBe('P');

    for (const size of [1, 3, 5]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 10; n++) {
        const got = await page(size, cursor);
        expect(got.items.length).toBeLessThanOrEqual(size);
        expect({ count: got.count, bytes: got.bytes }).toEqual(cursor ? { count: null, bytes: null } : { count: 8, bytes: whole.bytes });
        seen.push(...got.items.map((i) => i.id));
        if (!got.nextCursor) break;
        cursor = got.nextCursor;
      }
      expect(seen).toEqual(whole.items.map((i) => i.id));
    }
    const bad = await t.app.inject({ method: 'GET', url: '/v1/trash?cursor=bm9wZQ', headers: h });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('error/validation');
    expect((await t.app.inject({ method: 'GET', url: '/v1/trash?limit=0', headers: h })).statusCode).toBe(400);
  });
});
