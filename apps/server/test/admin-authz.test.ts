import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

/**
 * Every admin operation the server documents is refused to a signed-in non-admin (403) and to a
 * signed-out caller (401). The list is read from the OpenAPI document the server serves, so a new
 * `/v1/admin/*` route (or any operation tagged admin) is covered without touching this file.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
let user: Awaited<ReturnType<typeof buildUser>>;
const operations: Array<{ method: string; path: string; url: string }> = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app); // the first account is the instance's admin
  user = await buildUser(t.app);
  const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (!path.startsWith('/v1/admin/') && !op.tags?.includes('admin')) continue;
      operations.push({ method: method.toUpperCase(), path, url: path.replace(/\{[^}]+\}/g, 'x0') });
    }
  }
});
afterAll(async () => {
  await t.close();
});

describe('admin authorization (generated from the OpenAPI document)', () => {
  it('finds the admin operations in the served document', () => {
    expect(admin.user.roles).toContain('admin');
    expect(user.user.roles).not.toContain('admin');
    // users, analytics, jobs, feedback, audit, plus billing, GPU types and flags from other modules
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const p of ['/v1/admin/users/search', '/v1/admin/audit', '/v1/admin/analytics/events', '/v1/admin/jobs', '/v1/admin/feedback']) {
      expect(operations.map((o) => o.path)).toContain(p);
    }
  });

  it('every admin operation answers 401 signed out and 403 to a signed-in non-admin (session and API key)', async () => {
    const key = (await buildApiKey(t.app, user.cookie, { name: 'k' })).key;
    const failures: string[] = [];
    for (const op of operations) {
      const payload = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      const anon = await t.app.inject({ method: op.method as 'GET', url: op.url, payload });
      if (anon.statusCode !== 401) failures.push(`${op.method} ${op.path} signed out → ${anon.statusCode}`);
      const viaSession = await t.app.inject({ method: op.method as 'GET', url: op.url, payload, headers: { cookie: user.cookie } });
      if (viaSession.statusCode !== 403) failures.push(`${op.method} ${op.path} non-admin → ${viaSession.statusCode}`);
      else expect(viaSession.json().error.code).toBe('error/forbidden');
      const viaKey = await t.app.inject({ method: op.method as 'GET', url: op.url, payload, headers: { 'x-api-key': key } });
      if (viaKey.statusCode !== 403) failures.push(`${op.method} ${op.path} non-admin key → ${viaKey.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('the admin is let through every one of them (nothing answers 401/403 to an admin)', async () => {
    const refused: string[] = [];
    for (const op of operations.filter((o) => o.method === 'GET')) {
      const res = await t.app.inject({ method: 'GET', url: op.url, headers: { cookie: admin.cookie } });
      if (res.statusCode === 401 || res.statusCode === 403) refused.push(`${op.method} ${op.path} → ${res.statusCode}`);
    }
    expect(refused).toEqual([]);
  });
});
