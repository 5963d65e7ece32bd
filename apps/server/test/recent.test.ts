import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildDataset, buildModel, buildProject, buildTeam, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const req = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as never });
async function ok(cookie: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const res = await req(cookie, method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().data;
}
const names = (res: { json(): { data: { results: Array<{ kind: string; name: string }> } } }) => res.json().data.results.map((r) => `${r.kind}:${r.name}`);

describe('GET /v1/recent', () => {
  it('lists datasets, projects and models across collections, the last changed first, without other users’ or deleted items', async () => {
    const u = await buildUser(t.app);
    const other = await buildUser(t.app);
    await buildProject(t.app, other.cookie, { meta: { name: 'Not mine' } });
    const d = await buildDataset(t.app, u.cookie, { meta: { name: 'Shapes' }, task: 'detect' });
    t.clock.advance(1000);
    const p = await buildProject(t.app, u.cookie, { meta: { name: 'Traffic' } });
    t.clock.advance(1000);
    const m = await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'yolo' } });
    t.clock.advance(1000);
    await ok(u.cookie, 'PATCH', `/v1/models/${m.id}`, { meta: { name: 'yolo-small' } });
    t.clock.advance(1000);
    const gone = await buildProject(t.app, u.cookie, { meta: { name: 'Deleted one' } });
    await ok(u.cookie, 'DELETE', `/v1/projects/${gone.id}`);

    const res = await req(u.cookie, 'GET', '/v1/recent?limit=3');
    expect(res.statusCode).toBe(200);
    expect(names(res)).toEqual(['model:yolo-small', 'project:Traffic', 'dataset:Shapes']);
    const model = res.json().data.results[0];
    expect(model).toMatchObject({ id: m.id, parentName: 'Traffic' });
    expect(Date.parse(model.updated)).toBeGreaterThan(0);

    // an edit moves the dataset to the front
    t.clock.advance(1000);
    await ok(u.cookie, 'PATCH', `/v1/datasets/${d.id}`, { meta: { description: 'edited' } });
    expect(names(await req(u.cookie, 'GET', '/v1/recent'))[0]).toBe('dataset:Shapes');
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/recent' })).statusCode).toBe(401);
  });
});

describe('GET /v1/search', () => {
  it('finds datasets, projects, models and teams by part of the name, any case, prefix matches first; % and _ are literal', async () => {
    const u = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
    const other = await buildUser(t.app);
    await buildProject(t.app, other.cookie, { meta: { name: 'Zebra of someone else' } });
    await buildDataset(t.app, u.cookie, { meta: { name: 'Wild zebras' }, task: 'detect' });
    const p = await buildProject(t.app, u.cookie, { meta: { name: 'Zebra crossing' } });
    await buildModel(t.app, u.cookie, { project: { id: p.id }, meta: { name: 'zebra-v8n' } });
    await buildTeam(t.app, u.cookie, { meta: { name: 'Zebra team' } });
    await buildProject(t.app, u.cookie, { meta: { name: 'Horses' } });

    const res = await req(u.cookie, 'GET', '/v1/search?q=ZEBRA');
    expect(res.statusCode).toBe(200);
    const found = names(res);
    expect(found).toHaveLength(4);
    expect(found.slice(0, 3).sort()).toEqual(['model:zebra-v8n', 'project:Zebra crossing', 'team:Zebra team']);
    expect(found[3]).toBe('dataset:Wild zebras');
    expect(names(await req(u.cookie, 'GET', '/v1/search?q=%25'))).toEqual([]);
    expect((await req(u.cookie, 'GET', '/v1/search?q=')).statusCode).toBe(400);
  });
});
