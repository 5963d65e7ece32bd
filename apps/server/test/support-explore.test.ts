import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentJobs, jobs } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * ADR 0030: upgrade requests reach the admins (list with a count, one click to grant), the admin
 * contact of Support, and the explore page over others' public items.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app); // the first account is the admin
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload: payload as never });
async function ok(method: Method, url: string, cookie?: string, payload?: unknown) {
  const res = await call(method, url, cookie, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().data;
}

describe('upgrade requests', () => {
  it("a request rings the admins' bell (a record leading to Admin → Upgrade requests), not the requester's", async () => {
    const u = await buildUser(t.app);
    const before = (await ok('GET', '/v1/notifications/count', admin.cookie)).unread;
    await ok('POST', '/v1/billing/upgrade-requests', u.cookie, { plan: 'pro', message: 'Cloud runs' });
    expect((await ok('GET', '/v1/notifications/count', admin.cookie)).unread).toBe(before + 1);
    const records = (await ok('GET', '/v1/notifications', admin.cookie)).items as {
      kind: string;
      subject: { kind: string; id: string; name: string };
      detail: string;
      path: string;
    }[];
    expect(records.find((r) => r.kind === 'upgrade.requested' && r.subject.id === u.user.id)).toMatchObject({
      subject: { kind: 'user', name: u.user.username },
      detail: 'pro',
      path: '/admin?tab=requests',
    });
    expect((await ok('GET', '/v1/notifications', u.cookie)).items.filter((r: { kind: string }) => r.kind === 'upgrade.requested')).toEqual([]);
  });

  it('a Free user asks for Pro; asking again updates the one open request; admins see it with a count and grant it in one call', async () => {
    const u = await buildUser(t.app);
    expect((await ok('GET', '/v1/billing/upgrade-requests/mine', u.cookie)).request).toBeNull();
    const first = await ok('POST', '/v1/billing/upgrade-requests', u.cookie, { plan: 'pro', message: 'For the thesis' });
    expect(first).toMatchObject({ plan: 'pro', fromPlan: 'free', status: 'open', message: 'For the thesis', decided: null });
    const again = await ok('POST', '/v1/billing/upgrade-requests', u.cookie, { plan: 'enterprise' });
    expect(again).toMatchObject({ id: first.id, plan: 'enterprise', message: '' });
    expect((await ok('GET', '/v1/billing/upgrade-requests/mine', u.cookie)).request).toMatchObject({ id: first.id, plan: 'enterprise' });

    const list = await ok('GET', '/v1/admin/upgrade-requests', admin.cookie);
    expect(list.open).toBeGreaterThanOrEqual(1);
    const row = list.requests.find((r: { id: string }) => r.id === first.id);
    expect(row).toMatchObject({ plan: 'enterprise', user: { uid: u.user.id, username: u.user.username, email: u.user.email, plan: 'free' }, decidedBy: null });

    const granted = await ok('POST', `/v1/admin/upgrade-requests/${first.id}/grant`, admin.cookie);
    expect(granted).toMatchObject({ id: first.id, status: 'granted' });
    expect((await ok('GET', '/v1/users/me', u.cookie)).plan).toBe('enterprise');
    expect((await ok('GET', '/v1/billing', u.cookie)).subscription).toMatchObject({ source: 'admin', plan: 'enterprise' });
    expect((await ok('GET', '/v1/billing/upgrade-requests/mine', u.cookie)).request).toBeNull();
    const grantedList = await ok('GET', '/v1/admin/upgrade-requests?status=granted', admin.cookie);
    expect(grantedList.requests.find((r: { id: string }) => r.id === first.id)).toMatchObject({
      decidedBy: { uid: admin.user.id, username: admin.user.username },
    });
    expect(grantedList.open).toBe(list.open - 1);

    // granted once: a second click is a conflict, not a second plan change
    const twice = await call('POST', `/v1/admin/upgrade-requests/${first.id}/grant`, admin.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('billing/request-closed');
    // the plan one has is not something to ask for
    const same = await call('POST', '/v1/billing/upgrade-requests', u.cookie, { plan: 'pro' });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.code).toBe('billing/already-on-plan');
  });

  it('an admin may dismiss a request; only admins list, grant or dismiss', async () => {
    const u = await buildUser(t.app);
    const other = await buildUser(t.app);
    const req = await ok('POST', '/v1/billing/upgrade-requests', u.cookie, { plan: 'pro' });
    expect((await call('GET', '/v1/admin/upgrade-requests', u.cookie)).statusCode).toBe(403);
    expect((await call('POST', `/v1/admin/upgrade-requests/${req.id}/grant`, u.cookie)).statusCode).toBe(403);
    expect((await call('POST', `/v1/admin/upgrade-requests/${req.id}/grant`, other.cookie)).statusCode).toBe(403);
    expect((await call('POST', `/v1/admin/upgrade-requests/${req.id}/dismiss`, other.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/v1/admin/upgrade-requests')).statusCode).toBe(401);
    expect((await call('POST', '/v1/billing/upgrade-requests', undefined, { plan: 'pro' })).statusCode).toBe(401);
    expect((await ok('GET', '/v1/users/me', u.cookie)).plan).toBe('free');

    expect(await ok('POST', `/v1/admin/upgrade-requests/${req.id}/dismiss`, admin.cookie)).toMatchObject({ status: 'dismissed' });
    expect((await ok('GET', '/v1/users/me', u.cookie)).plan).toBe('free');
    expect((await ok('GET', '/v1/admin/upgrade-requests?status=dismissed', admin.cookie)).requests.map((r: { id: string }) => r.id)).toContain(req.id);
  });

  it('bad input is a 4xx naming the problem', async () => {
    const u = await buildUser(t.app);
    for (const body of [{ plan: 'free' }, { plan: 'platinum' }, {}, { plan: 'pro', message: 'x'.repeat(1001) }]) {
      const res = await call('POST', '/v1/billing/upgrade-requests', u.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('error/validation');
    }
    expect((await call('POST', '/v1/admin/upgrade-requests/nope/grant', admin.cookie)).statusCode).toBe(404);
    expect((await call('POST', `/v1/admin/upgrade-requests/${'x'.repeat(41)}/grant`, admin.cookie)).statusCode).toBe(400);
    expect((await call('GET', '/v1/admin/upgrade-requests?status=maybe', admin.cookie)).statusCode).toBe(400);
  });
});

describe('GET /v1/auth/session', () => {
  it('answers 200 with the user when signed in and with null when signed out or the session is gone (no 401 to log)', async () => {
    const u = await buildUser(t.app);
    expect((await ok('GET', '/v1/auth/session', u.cookie)).user).toMatchObject({ id: u.user.id, username: u.user.username });
    expect(await ok('GET', '/v1/auth/session')).toEqual({ user: null });
    expect(await ok('GET', '/v1/auth/session', 'sl_session=not-a-session')).toEqual({ user: null });
    expect((await call('GET', '/v1/users/me')).statusCode).toBe(401);
  });
});

describe('plans', () => {
  it('any signed-in user reads every plan with its limits (the comparison); signed out is a 401', async () => {
    const u = await buildUser(t.app);
    const plans = await ok('GET', '/v1/billing/plans', u.cookie);
    expect(plans.map((p: { plan: string }) => p.plan)).toEqual(['free', 'pro', 'enterprise']);
    expect(plans[0].limits).toMatchObject({ teams: false, cloudTraining: false });
    expect((await call('GET', '/v1/billing/plans')).statusCode).toBe(401);
  });
});

describe('support contact', () => {
  it('an admin sets the contact address; users read it; empty clears it; only admins set it; a bad address is a 400', async () => {
    const u = await buildUser(t.app);
    expect(await ok('GET', '/v1/support/contact', u.cookie)).toEqual({ email: null });
    expect(await ok('PUT', '/v1/admin/support/contact', admin.cookie, { email: 'help@example.org' })).toEqual({ email: 'help@example.org' });
    expect(await ok('GET', '/v1/support/contact', u.cookie)).toEqual({ email: 'help@example.org' });
    expect((await call('PUT', '/v1/admin/support/contact', u.cookie, { email: 'me@evil.test' })).statusCode).toBe(403);
    expect((await call('PUT', '/v1/admin/support/contact', admin.cookie, { email: 'not an address' })).statusCode).toBe(400);
    expect((await call('PUT', '/v1/admin/support/contact', admin.cookie, {})).statusCode).toBe(400);
    expect(await ok('PUT', '/v1/admin/support/contact', admin.cookie, { email: '' })).toEqual({ email: null });
    expect((await call('GET', '/v1/support/contact')).statusCode).toBe(401);
  });
});

describe('GET /v1/explore', () => {
  it("lists others' public datasets, projects and models, never private, unlisted, trashed or the viewer's own; searchable; paged", async () => {
    const owner = await buildUser(t.app);
    const viewer = await buildUser(t.app);
    const tag = `zq${Date.now().toString(36)}`;
    const pub = await ok('POST', '/v1/datasets', owner.cookie, { meta: { name: `${tag} birds`, privacy: 'public' }, task: 'detect' });
    t.clock.advance(1000);
    await ok('POST', '/v1/datasets', owner.cookie, { meta: { name: `${tag} secret`, privacy: 'private' }, task: 'detect' });
    await ok('POST', '/v1/datasets', owner.cookie, { meta: { name: `${tag} link-only`, privacy: 'unlisted' }, task: 'detect' });
    const project = await ok('POST', '/v1/projects', owner.cookie, { meta: { name: `${tag} traffic`, privacy: 'public' } });
    t.clock.advance(1000);
    const model = await ok('POST', '/v1/models', owner.cookie, { project: { id: project.id }, meta: { name: `${tag} yolo`, privacy: 'public' } });
    t.clock.advance(1000);
    const gone = await ok('POST', '/v1/projects', owner.cookie, { meta: { name: `${tag} gone`, privacy: 'public' } });
    await ok('DELETE', `/v1/projects/${gone.id}`, owner.cookie);
    await ok('POST', '/v1/datasets', viewer.cookie, { meta: { name: `${tag} mine`, privacy: 'public' }, task: 'detect' });

    const all = await ok('GET', `/v1/explore?q=${tag}`, viewer.cookie);
    // newest first (adding the model touched its project too, so those two share a time)
    const seen = all.items.map((i: { kind: string; name: string }) => `${i.kind}:${i.name}`);
    expect(seen.slice(0, 2).sort()).toEqual([`model:${tag} yolo`, `project:${tag} traffic`]);
    expect(seen[2]).toBe(`dataset:${tag} birds`);
    expect(all.items.find((i: { id: string }) => i.id === model.id)).toMatchObject({ owner: { username: owner.user.username }, parentName: `${tag} traffic` });
    expect(all.items[2]).toMatchObject({ id: pub.id, task: 'detect' });
    expect(all.next).toBeNull();

    // one kind; search ignores case; signed out reads the same public items (the matrix's anonymous row)
    expect((await ok('GET', `/v1/explore?kind=dataset&q=${tag.toUpperCase()}`, viewer.cookie)).items.map((i: { id: string }) => i.id)).toEqual([pub.id]);
    expect((await ok('GET', `/v1/explore?q=${tag}%20birds`)).items.map((i: { id: string }) => i.id)).toEqual([pub.id]);
    // the owner does not explore their own items
    expect((await ok('GET', `/v1/explore?q=${tag}`, owner.cookie)).items.map((i: { name: string }) => i.name)).toEqual([`${tag} mine`]);

    // keyset pages
    const p1 = await ok('GET', `/v1/explore?q=${tag}&limit=2`, viewer.cookie);
    expect(p1.items).toHaveLength(2);
    expect(p1.next).toEqual(expect.any(String));
    const p2 = await ok('GET', `/v1/explore?q=${tag}&limit=2&cursor=${encodeURIComponent(p1.next)}`, viewer.cookie);
    expect(p2.items.map((i: { id: string }) => i.id)).toEqual([pub.id]);
    expect(p2.next).toBeNull();
  });

  it('bad input is a 400', async () => {
    const u = await buildUser(t.app);
    for (const q of [
      'kind=team',
      'limit=0',
      'limit=51',
      `q=${'x'.repeat(101)}`,
      'cursor=garbage',
      `cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`,
    ]) {
      const res = await call('GET', `/v1/explore?${q}`, u.cookie);
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('admin jobs carry names', () => {
  it('the Jobs tab and the queued agent jobs name the model, dataset and user, not only their ids', async () => {
    const u = await buildUser(t.app);
    const d = await ok('POST', '/v1/datasets', u.cookie, { meta: { name: 'Harbour boats' }, task: 'detect' });
    const p = await ok('POST', '/v1/projects', u.cookie, { meta: { name: 'Harbour' } });
    const m = await ok('POST', '/v1/models', u.cookie, { project: { id: p.id }, meta: { name: 'boats-v2' } });
    const now = t.clock.now();
    await t.database.db.insert(jobs).values({
      id: `jq-${d.id}`,
      queue: 'dataset.process',
      payload: { userId: u.user.id, datasetId: d.id },
      status: 'failed',
      attempts: 3,
      maxAttempts: 3,
      lastError: 'bad zip',
      createdAt: now,
      updatedAt: now,
    });
    await t.database.db
      .insert(agentJobs)
      .values({ id: `ja-${m.id}`, kind: 'export', userId: u.user.id, modelId: m.id, status: 'queued', createdAt: now, updatedAt: now });

    const list = (await ok('GET', '/v1/admin/jobs', admin.cookie)).items;
    expect(list.find((j: { id: string }) => j.id === `jq-${d.id}`)).toMatchObject({
      dataset: { id: d.id, name: 'Harbour boats' },
      user: { id: u.user.id, username: u.user.username },
      model: null,
    });
    expect(list.find((j: { id: string }) => j.id === `ja-${m.id}`)).toMatchObject({
      kind: 'export',
      model: { id: m.id, name: 'boats-v2' },
      user: { username: u.user.username },
    });
    const queued = await ok('GET', '/v1/admin/agent-jobs', admin.cookie);
    expect(queued.find((j: { id: string }) => j.id === `ja-${m.id}`)).toMatchObject({ modelId: m.id, modelName: 'boats-v2' });
    await t.database.db.delete(agentJobs).where(eq(agentJobs.id, `ja-${m.id}`));
  });
});

describe('/v1/docs', () => {
  it("starts with signing in and the user's items, ends with the admin endpoints; every tag is declared", async () => {
    const doc = (await call('GET', '/v1/docs/json')).json() as { tags: Array<{ name: string }>; paths: Record<string, Record<string, { tags?: string[] }>> };
    const order = doc.tags.map((tg) => tg.name);
    expect(order[0]).toBe('auth');
    expect(order.at(-1)).toBe('admin');
    const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
    expect([...used].filter((tg) => !order.includes(tg))).toEqual([]);
  });
});
