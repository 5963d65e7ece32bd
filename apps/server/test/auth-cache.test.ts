import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QUOTA_BATCH } from '../src/modules/inference/rate-limit.js';
import { Invalidations } from '../src/platform/cache/invalidation.js';
import { createTestCluster, FIXTURES, uniqueEmail, type TestCluster } from './support/harness.js';

/**
 * Sessions and API keys are answered from a per-instance cache (ADR 0017), and every way of taking
 * access away (sign-out, key revocation, password change, account deletion, a direct write to the
 * user) is refused on every instance within a second: two servers on one database, each with its
 * own pool and LISTEN connection on PostgreSQL.
 */
let cluster: TestCluster;
let a: { url: string };
let b: { url: string };
const sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-cache-'));

beforeAll(async () => {
  // One data folder for both instances, as with S3: a model uploaded on one runs on the other.
  cluster = await createTestCluster(2, { DATA_DIR: sharedDir });
  [a, b] = [cluster.nodes[0]!, cluster.nodes[1]!];
});
afterAll(async () => {
  await cluster.close();
  fs.rmSync(sharedDir, { recursive: true, force: true });
});

const WITHIN_MS = 1000;
const json = { 'content-type': 'application/json' };

async function call(node: { url: string }, method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${node.url}${url}`, { method, headers: { ...json, ...headers }, body: method === 'GET' ? undefined : JSON.stringify(body ?? {}) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { data?: Record<string, unknown>; error?: { code: string } }) : {} };
}

async function signUp(node: { url: string }, password = 'cache-pass-1') {
  const email = uniqueEmail('cache');
  const res = await fetch(`${node.url}/v1/auth/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, username: `c${Math.random().toString(36).slice(2, 12)}`, firstName: 'Cache' }),
  });
  expect(res.status).toBe(201);
  const cookie = /sl_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  const user = ((await res.json()) as { data: { user: { id: string } } }).data.user;
  return { email, password, cookie, user };
}

async function signIn(node: { url: string }, email: string, password: string) {
  const res = await fetch(`${node.url}/v1/auth/signin`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  return /sl_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
}

const me = (node: { url: string }, headers: Record<string, string>) => call(node, 'GET', '/v1/users/me', headers);

/** Polls until `check` passes, failing if that takes longer than WITHIN_MS. */
async function within(check: () => Promise<void>) {
  const started = performance.now();
  await vi.waitFor(check, { timeout: WITHIN_MS, interval: 10 });
  return performance.now() - started;
}

describe('cached sessions and API keys across instances', () => {
  it('a signed-out session is refused on the other instance within a second (and at once on its own)', async () => {
    const u = await signUp(a);
    const other = await signIn(a, u.email, u.password);
    // Both instances have the sessions cached.
    for (const node of [a, b]) {
      expect((await me(node, { cookie: u.cookie })).status).toBe(200);
      expect((await me(node, { cookie: other })).status).toBe(200);
    }
    expect((await call(a, 'POST', '/v1/auth/signout', { cookie: u.cookie })).status).toBe(200);
    expect((await me(a, { cookie: u.cookie })).status).toBe(401);
    await within(async () => expect((await me(b, { cookie: u.cookie })).status).toBe(401));
    // The other session of the same user stays valid everywhere.
    expect((await me(b, { cookie: other })).status).toBe(200);
    expect((await me(a, { cookie: other })).status).toBe(200);
  });

  it('a revoked API key is refused on the other instance within a second', async () => {
    const u = await signUp(a);
    const created = await call(a, 'POST', '/v1/api-keys', { cookie: u.cookie }, { name: 'cached' });
    expect(created.status).toBe(201);
    const key = created.body.data!.key as string;
    const legacy = created.body.data!.legacyKey as string;
    for (const node of [a, b]) {
      expect((await me(node, { 'x-api-key': key })).status).toBe(200);
      expect((await me(node, { authorization: `Bearer ${legacy}` })).status).toBe(200);
    }
    expect((await call(b, 'DELETE', `/v1/api-keys/${created.body.data!.id as string}`, { cookie: u.cookie })).status).toBe(200);
    const refused = await me(b, { 'x-api-key': key });
    expect(refused.status).toBe(401);
    expect(refused.body.error!.code).toBe('auth/invalid-api-key');
    await within(async () => {
      expect((await me(a, { 'x-api-key': key })).status).toBe(401);
      expect((await me(a, { authorization: `Bearer ${legacy}` })).status).toBe(401);
    });
    expect((await me(a, { cookie: u.cookie })).status).toBe(200);
  });

  it('a password change ends the other sessions on every instance; the old password no longer works', async () => {
    const u = await signUp(a);
    const stolen = await signIn(b, u.email, u.password);
    expect((await me(b, { cookie: stolen })).status).toBe(200);
    expect((await me(b, { cookie: u.cookie })).status).toBe(200);
    expect(
      (await call(a, 'POST', '/v1/users/me/password', { cookie: u.cookie }, { currentPassword: u.password, newPassword: 'cache-pass-2-new' })).status,
    ).toBe(200);
    await within(async () => expect((await me(b, { cookie: stolen })).status).toBe(401));
    expect((await me(b, { cookie: u.cookie })).status).toBe(200);
    // The cached user row on b (with the old password hash) went too: the old password is wrong there.
    const again = await call(b, 'POST', '/v1/users/me/password', { cookie: u.cookie }, { currentPassword: u.password, newPassword: 'cache-pass-3-new' });
    expect(again.status).toBe(400);
    expect(again.body.error!.code).toBe('auth/wrong-password');
  });

  it('a deleted account and a user disabled by a direct database write are refused everywhere', async () => {
    const u = await signUp(a);
    expect((await me(b, { cookie: u.cookie })).status).toBe(200);
    expect((await call(a, 'DELETE', '/v1/users/me', { cookie: u.cookie }, { password: u.password })).status).toBe(200);
    expect((await me(a, { cookie: u.cookie })).status).toBe(401);
    await within(async () => expect((await me(b, { cookie: u.cookie })).status).toBe(401));

    // Any write path counts, not only the services': the triggers of migration 0017 send the eviction.
    const v = await signUp(b);
    const key = (await call(b, 'POST', '/v1/api-keys', { cookie: v.cookie }, { name: 'k' })).body.data!.key as string;
    for (const node of [a, b]) {
      expect((await me(node, { cookie: v.cookie })).status).toBe(200);
      expect((await me(node, { 'x-api-key': key })).status).toBe(200);
    }
    await cluster.database.query('UPDATE users SET deleted_at = now() WHERE id = $1', [v.user.id]);
    await within(async () => {
      for (const node of [a, b]) {
        expect((await me(node, { cookie: v.cookie })).status).toBe(401);
        expect((await me(node, { 'x-api-key': key })).status).toBe(401);
      }
    });
  });

  it('profile and role changes show in /v1/users/me on every instance', async () => {
    const u = await signUp(a);
    for (const node of [a, b]) expect((await me(node, { cookie: u.cookie })).body.data!.firstName).toBe('Cache');
    const patched = await call(a, 'PATCH', '/v1/users/me', { cookie: u.cookie }, { firstName: 'Renamed' });
    expect(patched.status).toBe(200);
    expect((await me(a, { cookie: u.cookie })).body.data!.firstName).toBe('Renamed');
    await within(async () => expect((await me(b, { cookie: u.cookie })).body.data!.firstName).toBe('Renamed'));
    await cluster.database.query(`UPDATE users SET roles = '{admin}' WHERE id = $1`, [u.user.id]);
    // The instance whose pool made the write reads it back at once (the write waits for its evictions).
    expect((await me(a, { cookie: u.cookie })).body.data!.roles).toEqual(['admin']);
    await within(async () => {
      for (const node of [a, b]) expect((await me(node, { cookie: u.cookie })).body.data!.roles).toEqual(['admin']);
    });
    await cluster.database.query(`INSERT INTO auth_identities (provider, subject, user_id) VALUES ('github', $1, $2)`, [`gh-${u.user.id}`, u.user.id]);
    await within(async () => {
      for (const node of [a, b]) expect((await me(node, { cookie: u.cookie })).body.data!.providers).toEqual(['password', 'github']);
    });
  });

  it('a new username shows as the owner of listed projects on every instance', async () => {
    const u = await signUp(a);
    const created = await call(a, 'POST', '/v1/projects', { cookie: u.cookie }, { meta: { name: 'Owned' } });
    expect(created.status).toBe(201);
    const owner = async (node: { url: string }) =>
      ((await call(node, 'GET', `/v1/projects/${created.body.data!.id as string}`, { cookie: u.cookie })).body.data!.owner as { username: string }).username;
    const before = await owner(b);
    const renamed = `r${Math.random().toString(36).slice(2, 12)}`;
    expect((await call(a, 'PATCH', '/v1/users/me', { cookie: u.cookie }, { username: renamed })).status).toBe(200);
    expect(before).not.toBe(renamed);
    expect(await owner(a)).toBe(renamed);
    await within(async () => expect(await owner(b)).toBe(renamed));
  });

  it('a cached session still expires on time', async () => {
    const u = await signUp(a);
    expect((await me(b, { cookie: u.cookie })).status).toBe(200);
    cluster.clock.advance(31 * 24 * 3600_000);
    try {
      expect((await me(b, { cookie: u.cookie })).status).toBe(401);
      expect((await me(a, { cookie: u.cookie })).status).toBe(401);
    } finally {
      cluster.clock.advance(-31 * 24 * 3600_000);
    }
  });
});

async function uploadModel(node: { url: string }, cookie: string, file = 'shapes3-cls.onnx') {
  const form = new FormData();
  form.set('model_name', file);
  form.set('file', new Blob([fs.readFileSync(path.join(FIXTURES, file))]), file);
  const res = await fetch(`${node.url}/v1/models/upload`, { method: 'POST', headers: { cookie }, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function predict(node: { url: string }, modelId: string, headers: Record<string, string>) {
  const form = new FormData();
  form.set('file', new Blob([fs.readFileSync(path.join(FIXTURES, 'test-images', 'test_0003.png'))], { type: 'image/png' }), 'img.png');
  const res = await fetch(`${node.url}/v1/predict/${modelId}`, { method: 'POST', headers, body: form });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 429 && res.status !== 404) throw new Error(`predict ${res.status}: ${text}`);
  return { status: res.status, remaining: Number(res.headers.get('x-ratelimit-remaining')) };
}

const hourBucket = () => `h:${cluster.clock.now().toISOString().slice(0, 13)}`;
const hourCount = async (userId: string) =>
  Number(
    (
      await cluster.database.query<{ count: number }>(`SELECT count FROM inference_usage WHERE user_id = $1 AND api_key_id = '' AND bucket = $2`, [
        userId,
        hourBucket(),
      ])
    )[0]?.count ?? 0,
  );

describe('predict: cached model lookups and quota counted in memory', () => {
  it('a model made private on one instance is refused to others on the other instance within a second', async () => {
    const owner = await signUp(a);
    const caller = await signUp(b);
    const id = await uploadModel(b, owner.cookie);
    expect((await call(a, 'POST', `/v1/models/${id}/share`, { cookie: owner.cookie }, { privacy: 'public' })).status).toBe(200);
    expect((await predict(b, id, { cookie: caller.cookie })).status).toBe(200);
    expect((await predict(b, id, { cookie: caller.cookie })).status).toBe(200); // cached on b now
    expect((await call(a, 'POST', `/v1/models/${id}/share`, { cookie: owner.cookie }, { privacy: 'private' })).status).toBe(200);
    // A prediction that still runs takes long on a busy machine: wait the second, then ask once.
    await new Promise((r) => setTimeout(r, WITHIN_MS));
    expect((await predict(b, id, { cookie: caller.cookie })).status).toBe(404);
    expect((await predict(b, id, { cookie: owner.cookie })).status).toBe(200);
  });

  it('one instance never admits a call over the plan limit; counts reach the database within a second', async () => {
    const u = await signUp(a);
    const id = await uploadModel(a, u.cookie);
    // 95 of the free plan's 100 calls this hour are used already.
    await cluster.database.query(`INSERT INTO inference_usage (user_id, api_key_id, bucket, count) VALUES ($1, '', $2, 95)`, [u.user.id, hourBucket()]);
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await predict(a, id, { cookie: u.cookie });
      statuses.push(r.status);
      if (r.status === 200) remaining.push(r.remaining);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    await within(async () => expect(await hourCount(u.user.id)).toBe(100));
    // The usage endpoint writes what is pending first (the month had none of the 95).
    for (let i = 0; i < 3; i++) expect((await predict(a, id, { cookie: u.cookie })).status).toBe(429);
    const usage = await call(a, 'GET', '/v1/users/me/inference-usage', { cookie: u.cookie });
    expect(usage.body.data!.total).toBe(5);
  });

  it(`two instances together go over the limit by at most ${QUOTA_BATCH} calls (one batch of the other instance)`, async () => {
    const u = await signUp(a);
    const id = await uploadModel(a, u.cookie);
    await cluster.database.query(`INSERT INTO inference_usage (user_id, api_key_id, bucket, count) VALUES ($1, '', $2, 90)`, [u.user.id, hourBucket()]);
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await predict(i % 2 ? a : b, id, { cookie: u.cookie })).status === 200) allowed += 1;
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + QUOTA_BATCH);
    await within(async () => expect(await hourCount(u.user.id)).toBe(90 + allowed));
  });
});

describe('TaggedCache', () => {
  it('drops a value whose tag was evicted while it loaded, and answers nothing while notifications are not flowing', async () => {
    const inv = new Invalidations();
    inv.live = true;
    const cache = inv.cache<string>({ ttlMs: 60_000, max: 2 });
    let release!: () => void;
    const loading = cache.getOrLoad('k', async () => {
      await new Promise<void>((r) => (release = r));
      return { value: 'stale', tags: ['u:1'] };
    });
    inv.evict('u:1');
    release();
    expect(await loading).toBe('stale');
    expect(cache.get('k')).toBeUndefined();
    // An eviction of another tag does not stop a load from being kept.
    const since = cache.mark();
    inv.evict('u:2');
    cache.set('k', 'fresh', ['u:1'], since);
    expect(cache.get('k')).toBe('fresh');
    inv.evict('u:1');
    expect(cache.get('k')).toBeUndefined();
    // Bounded: the oldest entry leaves first.
    for (const k of ['x', 'y', 'z']) cache.set(k, k, ['u:9'], cache.mark());
    expect([cache.get('x'), cache.get('y'), cache.get('z')]).toEqual([undefined, 'y', 'z']);
    // A LISTEN gap: nothing is answered until notifications flow again.
    inv.live = false;
    expect(cache.get('z')).toBeUndefined();
  });
});
