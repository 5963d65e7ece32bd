import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { UNSAFE_NAME_MESSAGE } from '@sightline/contracts';
import { buildApp, loggerOptions } from '../src/app.js';
import { newRunKey } from '../src/modules/agents/agents.service.js';
import { users } from '../src/platform/db/schema.js';
import { shapes3Dataset } from './support/wire.js';
import { createTestApp, createTestCluster, multipart, type TestApp, type TestCluster } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

/**
 * Trust (ADR 0023): where an item lives changes only through the matrix's own actions; links are
 * bound to their holder; a cloud run's key reaches only its run's items; names carry no control
 * characters; keys a client puts in a URL path never reach the log.
 */
let t: TestApp;
// Starting the app takes long on a loaded machine.
beforeAll(async () => {
  t = await createTestApp();
}, 300_000);
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD';
const call = (headers: Record<string, string>, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as never });
const ok = async (headers: Record<string, string>, method: Method, url: string, payload?: unknown) => {
  const res = await call(headers, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return res.json().data;
};
const pathOf = (url: string) => (url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url);
const statusOf = async (url: string) => (await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode;
async function statuses(links: Record<string, string>) {
  const out: Record<string, number> = {};
  for (const [k, url] of Object.entries(links)) out[k] = await statusOf(url);
  return out;
}
const ALL_OK = { images: 200, thumbnails: 200, archive: 200, weights: 200 };
const expectDead = (after: Record<string, number>) => {
  for (const [k, code] of Object.entries(after)) expect([403, 404], `${k}: ${code}`).toContain(code);
};

async function modelWithWeights(cookie: string, name: string) {
  const weights = Buffer.alloc(4096, 3);
  weights.write('PK\u0003\u0004', 0, 'latin1');
  const mp = multipart({ model_name: name, project_name: name }, { filename: 'best.pt', content: weights });
  const up = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { cookie, ...mp.headers }, payload: mp.payload });
  expect(up.statusCode).toBe(201);
  return up.json().data.id as string;
}

/** The four kinds of link a caller (cookie or API key headers) gets for a dataset and a model. */
async function linksOf(headers: Record<string, string>, datasetId: string, modelId: string) {
  const first = (await ok(headers, 'GET', `/v1/datasets/${datasetId}/images?limit=5`)).results[0] as { thumbUrl: string; url: string };
  const archive = (await ok(headers, 'GET', `/v1/datasets/${datasetId}/download`)).url as string;
  const files = (await ok(headers, 'GET', `/v1/models/${modelId}`)).files as Array<{ kind: string; url: string }>;
  return { images: first.url, thumbnails: first.thumbUrl, archive, weights: files.find((f) => f.kind === 'best')!.url };
}

describe('where a team item lives changes only through the matrix (move / transfer)', () => {
  it('a member cannot take a team model into their own project; the team keeps it; an admin moves it only within the team', async () => {
    const owner = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const [member, admin, viewer] = [await buildUser(t.app), await buildUser(t.app), await buildUser(t.app)];
    const o = { cookie: owner.cookie };
    const team = await ok(o, 'POST', '/v1/teams', { meta: { name: 'Keep' } });
    for (const [u, role] of [
      [member, 'member'],
      [admin, 'admin'],
      [viewer, 'viewer'],
    ] as const) {
      await ok(o, 'POST', `/v1/teams/${team.id}/invites`, { email: u.email, role });
      await ok({ cookie: u.cookie }, 'POST', `/api_v1/teams/${team.id}/invite/accept`);
    }
    const modelId = await modelWithWeights(owner.cookie, 'kept');
    const projectId = (await ok(o, 'GET', `/v1/models/${modelId}`)).project.id as string;
    await ok(o, 'POST', `/v1/teams/${team.id}/items`, { kind: 'project', id: projectId });
    const teamProject = (await ok(o, 'POST', '/v1/projects', { meta: { name: 'second' } })).id as string;
    await ok(o, 'POST', `/v1/teams/${team.id}/items`, { kind: 'project', id: teamProject });

    for (const u of [member, admin]) {
      const own = (await ok({ cookie: u.cookie }, 'POST', '/v1/projects', { meta: { name: 'mine' } })).id as string;
      const res = await call({ cookie: u.cookie }, 'POST', `/v1/models/${modelId}/transfer`, { projectId: own });
      expect(res.statusCode, res.body).toBe(403);
    }
    // The model is still the team's: the viewer sees it, in its project.
    expect((await ok({ cookie: viewer.cookie }, 'GET', `/v1/models/${modelId}`)).project.id).toBe(projectId);
    // An admin moves it within the team; the owner takes it anywhere.
    expect((await call({ cookie: admin.cookie }, 'POST', `/v1/models/${modelId}/transfer`, { projectId: teamProject })).statusCode).toBe(200);
    expect((await ok({ cookie: viewer.cookie }, 'GET', `/v1/models/${modelId}`)).project.id).toBe(teamProject);
    // A member cannot take a dataset or project out of the team either; only its owner hands it to another team.
    const res = await call({ cookie: member.cookie }, 'DELETE', `/v1/teams/${team.id}/items/project/${teamProject}`);
    expect(res.statusCode).toBe(403);
    // After the member is removed, nothing of the team is theirs.
    await ok(o, 'DELETE', `/v1/teams/${team.id}/members/${member.user.id}`);
    expect((await call({ cookie: member.cookie }, 'GET', `/v1/models/${modelId}`)).statusCode).toBe(404);
  });
});

describe('links bound to their holder', () => {
  it("a signed-out session's four links stop within 1 s; the owner signed in elsewhere keeps working ones", async () => {
    const owner = await buildUser(t.app);
    const dataset = await shapes3Dataset(t, owner.user.id, 'holder-session');
    const modelId = await modelWithWeights(owner.cookie, 'holder-session');
    const other = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: owner.email, password: owner.password } });
    const otherCookie = `sl_session=${/sl_session=([^;]+)/.exec(String(other.headers['set-cookie']))![1]}`;
    const links = await linksOf({ cookie: owner.cookie }, dataset.id, modelId);
    const stays = await linksOf({ cookie: otherCookie }, dataset.id, modelId);
    expect(await statuses(links)).toEqual(ALL_OK);
    expect((await call({ cookie: owner.cookie }, 'POST', '/v1/auth/signout')).statusCode).toBe(200);
    const t0 = Date.now();
    expectDead(await statuses(links));
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await statuses(stays)).toEqual(ALL_OK);
  });

  it("a deleted API key's links stop, the training client's dataset link included", async () => {
    const owner = await buildUser(t.app);
    const dataset = await shapes3Dataset(t, owner.user.id, 'holder-key');
    const modelId = await modelWithWeights(owner.cookie, 'holder-key');
    const created = await ok({ cookie: owner.cookie }, 'POST', '/v1/api-keys', { name: 'client' });
    const keyHeaders = { 'x-api-key': created.key as string };
    const links = await linksOf(keyHeaders, dataset.id, modelId);
    const exported = await call({ authorization: `Bearer ${created.key}` }, 'GET', `/api/datasets/${owner.user.username}/${dataset.slug}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    const ndjson = exported.json().downloadUrl as string;
    expect(await statuses({ ...links, ndjson })).toEqual({ ...ALL_OK, ndjson: 200 });
    await ok({ cookie: owner.cookie }, 'DELETE', `/v1/api-keys/${created.id}`);
    const t0 = Date.now();
    expectDead(await statuses({ ...links, ndjson }));
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe("a cloud run's key reaches only its run's dataset and model", () => {
  it("reads its dataset and model; cannot read, edit or delete the user's other datasets, nor list them", async () => {
    const owner = await buildUser(t.app);
    const runDataset = await shapes3Dataset(t, owner.user.id, 'run-data');
    const unrelated = await shapes3Dataset(t, owner.user.id, 'unrelated');
    const o = { cookie: owner.cookie };
    const project = (await ok(o, 'POST', '/v1/projects', { meta: { name: 'Run' } })).id as string;
    const model = (await ok(o, 'POST', '/v1/models', { project: { id: project }, meta: { name: 'run' }, dataset: { id: runDataset.id } })).id as string;
    const key = await newRunKey(t.app.ctx, owner.user.id, model);
    const bearer = { authorization: `Bearer ${key.key}` };
    const asKey = { 'x-api-key': key.key };

    expect((await call(bearer, 'GET', '/api/settings')).statusCode).toBe(200);
    expect((await call(bearer, 'GET', `/api/datasets/${owner.user.username}/${runDataset.slug}/export`)).statusCode).toBe(200);
    expect((await call(asKey, 'GET', `/v1/models/${model}`)).statusCode).toBe(200);

    const refused = [
      await call(bearer, 'GET', `/api/datasets/${owner.user.username}/${unrelated.slug}/export`),
      await call(asKey, 'GET', `/v1/datasets/${unrelated.id}`),
      await call(asKey, 'PATCH', `/v1/datasets/${unrelated.id}`, { meta: { name: 'hijacked' } }),
      await call(asKey, 'DELETE', `/v1/datasets/${unrelated.id}`),
      await call(asKey, 'GET', '/v1/datasets'),
      await call(asKey, 'DELETE', `/v1/datasets/${runDataset.id}`),
      await call(asKey, 'DELETE', `/v1/models/${model}`),
      await call(asKey, 'POST', '/v1/api-keys', { name: 'more' }),
    ];
    expect(
      refused.map((r) => r.statusCode).every((c) => c === 403 || c === 404),
      refused.map((r) => `${r.statusCode} ${r.body.slice(0, 80)}`).join('\n'),
    ).toBe(true);
    const still = await ok(o, 'GET', `/v1/datasets/${unrelated.id}`);
    expect(still.meta.name).toBe('unrelated');
    expect(still.dates.deleted).toBeNull();
  });
});

describe('names carry no control characters or terminal escapes', () => {
  it("every name field answers 400 with the rule's message", async () => {
    const owner = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const o = { cookie: owner.cookie };
    const project = (await ok(o, 'POST', '/v1/projects', { meta: { name: 'ok' } })).id as string;
    const model = (await ok(o, 'POST', '/v1/models', { project: { id: project }, meta: { name: 'ok' } })).id as string;
    const dataset = (await ok(o, 'POST', '/v1/datasets', { meta: { name: 'ok' } })).id as string;
    const team = (await ok(o, 'POST', '/v1/teams', { meta: { name: 'ok' } })).id as string;
    let tried = 0;
    for (const bad of ['red\u001b[31mtext', 'bell\u0007', 'line\nbreak', 'csi\u009b2J', 'rtl\u202egnp.exe', 'del\u007f']) {
      const attempts: Array<[Method, string, unknown, Record<string, string>?]> = [
        ['POST', '/v1/projects', { meta: { name: bad } }],
        ['PATCH', `/v1/projects/${project}`, { meta: { name: bad } }],
        ['POST', '/v1/models', { project: { id: project }, meta: { name: bad } }],
        ['PATCH', `/v1/models/${model}`, { meta: { name: bad } }],
        ['POST', '/v1/datasets', { meta: { name: bad } }],
        ['PATCH', `/v1/datasets/${dataset}`, { meta: { name: bad } }],
        ['POST', '/v1/teams', { meta: { name: bad } }],
        ['PATCH', `/v1/teams/${team}`, { meta: { name: bad } }],
        ['PATCH', '/v1/users/me', { firstName: bad }],
        ['PATCH', '/v1/users/me', { lastName: bad }],
        ['POST', '/v1/api-keys', { name: bad }],
        ['POST', '/v1/agents', { name: bad }],
        ['POST', '/v1/auth/signup', { email: `n${Date.now()}@example.com`, password: 'correct-horse-9', username: `n${Date.now()}`, firstName: bad }, {}],
      ];
      for (const [method, url, payload, headers] of attempts) {
        const res = await call(headers ?? o, method, url, payload);
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(bad)}: ${res.body}`).toBe(400);
        expect(res.json().error.message).toContain(UNSAFE_NAME_MESSAGE);
        tried += 1;
      }
    }
    expect(tried).toBe(78);
    // Plain names with accents, emoji and inner spaces still pass.
    expect((await call(o, 'PATCH', `/v1/projects/${project}`, { meta: { name: 'Café 🚀 détection' } })).statusCode).toBe(200);
  });
});

describe('secrets a client puts in a URL path are not logged', () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString('utf8'));
        cb();
      },
    });
    app = await buildApp({
      config: t.config,
      database: t.database,
      clock: t.clock,
      logger: { ...loggerOptions({ ...t.config, logLevel: 'info' }), stream: sink },
    });
    await app.ready();
  }, 300_000);
  afterAll(async () => {
    await app.close();
  });

  it('API keys in both spellings, session tokens and agent tokens in a path never reach the log or the 404 message', async () => {
    const u = await buildUser(app);
    const created = await buildApiKey(app, u.cookie, { name: 'k' });
    const session = u.cookie.split('=')[1]!;
    const secrets = [created.key, created.legacyKey, session, 'sla_0123456789abcdefABCDEF'];
    for (const secret of secrets) {
      const res = await app.inject({ method: 'GET', url: `/v1/models/${secret}/download` });
      expect(res.body).not.toContain(secret);
      await app.inject({ method: 'GET', url: `/${secret}` });
      await app.inject({ method: 'GET', url: `/v1/users/${secret}?x=1` });
    }
    const log = lines.join('');
    expect(log).toContain('request completed');
    for (const secret of secrets) expect(log).not.toContain(secret.slice(3));
  });
});

describe('a removal ends links on every instance', () => {
  let cluster: TestCluster;
  const sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-trust-'));
  beforeAll(async () => {
    cluster = await createTestCluster(2, { DATA_DIR: sharedDir });
  }, 300_000);
  afterAll(async () => {
    await cluster?.close();
    fs.rmSync(sharedDir, { recursive: true, force: true });
  });

  it("a member's weights link warmed on instance B dies there within 1 s of the removal made on instance A", async () => {
    const [a, b] = [cluster.nodes[0]!.app, cluster.nodes[1]!.app];
    const owner = await buildUser(a);
    await cluster.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const member = await buildUser(a);
    const on = (app: FastifyInstance, cookie: string, method: Method, url: string, payload?: unknown) =>
      app.inject({ method, url, headers: { cookie }, payload: payload as never });
    const team = (await on(a, owner.cookie, 'POST', '/v1/teams', { meta: { name: 'Two' } })).json().data;
    await on(a, owner.cookie, 'POST', `/v1/teams/${team.id}/invites`, { email: member.email, role: 'member' });
    expect((await on(a, member.cookie, 'POST', `/api_v1/teams/${team.id}/invite/accept`)).statusCode).toBeLessThan(300);
    const weights = Buffer.alloc(4096, 3);
    weights.write('PK\u0003\u0004', 0, 'latin1');
    const mp = multipart({ model_name: 'two', project_name: 'Two' }, { filename: 'best.pt', content: weights });
    const modelId = (await a.inject({ method: 'POST', url: '/v1/models/upload', headers: { cookie: owner.cookie, ...mp.headers }, payload: mp.payload })).json()
      .data.id as string;
    const projectId = (await on(a, owner.cookie, 'GET', `/v1/models/${modelId}`)).json().data.project.id as string;
    expect((await on(a, owner.cookie, 'POST', `/v1/teams/${team.id}/items`, { kind: 'project', id: projectId })).statusCode).toBe(200);

    const files = (await on(a, member.cookie, 'GET', `/v1/models/${modelId}`)).json().data.files as Array<{ kind: string; url: string }>;
    const link = files.find((f) => f.kind === 'best')!.url;
    expect((await b.inject({ method: 'GET', url: link })).statusCode).toBe(200); // B now holds the member's role in its cache
    expect((await on(a, owner.cookie, 'DELETE', `/v1/teams/${team.id}/members/${member.user.id}`)).statusCode).toBe(200);
    const t0 = Date.now();
    let status = 200;
    while (Date.now() - t0 < 5000 && (status = (await b.inject({ method: 'GET', url: link })).statusCode) === 200) await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(403);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
