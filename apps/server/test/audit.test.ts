import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, users } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * The audit log (ADR 0015): each security-relevant action writes exactly one entry with the right
 * actor and target, IP and user agent; a failed sign-in is recorded without the password; entries
 * cannot be changed through any API (none exists) nor through SQL (a trigger refuses).
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
const UA = 'audit-test-agent/1.0';

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app);
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie, 'user-agent': UA }, payload, remoteAddress: '203.0.113.9' });

let lastSeq = 0;
/** Entries written since the previous call. */
async function newEntries() {
  const rows = await t.database.db
    .select()
    .from(auditLog)
    .where(sql`${auditLog.seq} > ${lastSeq}`)
    .orderBy(auditLog.seq);
  if (rows.length) lastSeq = rows[rows.length - 1]!.seq;
  return rows;
}
async function only(action: string) {
  const rows = await newEntries();
  expect(rows.map((r) => r.action)).toEqual([action]);
  return rows[0]!;
}

describe('audit entries: exactly one per action, right actor and target', () => {
  it('sign-in (success and failure without the password) and sign-out', async () => {
    const u = await buildUser(t.app, { password: 'correct-horse-9' });
    await newEntries();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      payload: { email: u.email, password: 'correct-horse-9' },
      headers: { 'user-agent': UA },
      remoteAddress: '203.0.113.9',
    });
    expect(ok.statusCode).toBe(200);
    const signIn = await only('auth.sign_in');
    expect(signIn).toMatchObject({
      actorId: u.user.id,
      actorLabel: u.email,
      targetType: 'user',
      targetId: u.user.id,
      userId: u.user.id,
      outcome: 'success',
      ip: '203.0.113.9',
      userAgent: UA,
    });

    const secret = 'Wrong-Password-123-zz';
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      payload: { email: u.email, password: secret },
      headers: { 'user-agent': UA },
      remoteAddress: '203.0.113.9',
    });
    expect(bad.statusCode).toBe(401);
    const failed = await only('auth.sign_in_failed');
    expect(failed).toMatchObject({ actorId: null, actorLabel: u.email, userId: u.user.id, outcome: 'failure', ip: '203.0.113.9', userAgent: UA });
    expect(JSON.stringify(failed)).not.toContain(secret);
    // an unknown account is recorded too, with nobody's user id
    await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: 'nobody@example.com', password: secret } });
    expect(await only('auth.sign_in_failed')).toMatchObject({ actorLabel: 'nobody@example.com', userId: null });
    const all = await t.database.db.select().from(auditLog);
    expect(JSON.stringify(all)).not.toContain(secret);

    await call('POST', '/v1/auth/signout', u.cookie);
    expect(await only('auth.sign_out')).toMatchObject({ actorId: u.user.id, targetId: u.user.id });
  });

  it('password and email change; API key created and revoked', async () => {
    const u = await buildUser(t.app, { password: 'correct-horse-9' });
    await newEntries();
    expect((await call('POST', '/v1/users/me/password', u.cookie, { currentPassword: 'correct-horse-9', newPassword: 'battery-staple-7' })).statusCode).toBe(
      200,
    );
    expect(await only('account.password_change')).toMatchObject({ actorId: u.user.id, targetId: u.user.id, userId: u.user.id });
    expect((await call('POST', '/v1/users/me/email', u.cookie, { email: `new-${u.email}`, password: 'battery-staple-7' })).statusCode).toBe(200);
    expect(await only('account.email_change')).toMatchObject({ actorId: u.user.id, targetId: u.user.id });

    const created = await call('POST', '/v1/api-keys', u.cookie, { name: 'ci' });
    expect(created.statusCode).toBe(201);
    const keyId = created.json().data.id as string;
    const keyEntry = await only('api_key.create');
    expect(keyEntry).toMatchObject({ actorId: u.user.id, targetType: 'api_key', targetId: keyId, userId: u.user.id });
    expect(JSON.stringify(keyEntry)).not.toContain(created.json().data.key.slice(3));
    expect((await call('DELETE', `/v1/api-keys/${keyId}`, u.cookie)).statusCode).toBe(200);
    expect(await only('api_key.revoke')).toMatchObject({ actorId: u.user.id, targetId: keyId });
  });

  it('role grant and revoke by an admin; never the last admin', async () => {
    const u = await buildUser(t.app);
    await newEntries();
    const granted = await call('POST', `/v1/admin/users/${u.user.id}/role`, admin.cookie, { role: 'admin', grant: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().data.roles).toContain('admin');
    expect(await only('user.role_grant')).toMatchObject({ actorId: admin.user.id, actorLabel: admin.email, targetId: u.user.id, userId: u.user.id });
    expect((await call('POST', `/v1/admin/users/${u.user.id}/role`, admin.cookie, { role: 'admin', grant: false })).statusCode).toBe(200);
    expect(await only('user.role_revoke')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id });
    // the last admin cannot be revoked (nor revoke themselves into none)
    const last = await call('POST', `/v1/admin/users/${admin.user.id}/role`, admin.cookie, { role: 'admin', grant: false });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.code).toBe('admin/last-admin');
    expect(await newEntries()).toEqual([]);
  });

  it('plan change by an admin: one plan entry (not a second generic admin entry)', async () => {
    const u = await buildUser(t.app);
    await newEntries();
    expect((await call('POST', `/v1/admin/billing/users/${u.user.id}/plan`, admin.cookie, { plan: 'pro', reason: 'Research grant' })).statusCode).toBe(200);
    const e = await only('user.plan_change');
    expect(e).toMatchObject({
      actorId: admin.user.id,
      targetId: u.user.id,
      userId: u.user.id,
      meta: expect.objectContaining({ from: 'free', to: 'pro', reason: 'Research grant' }),
    });
  });

  it('deletion, restore and sharing of items', async () => {
    const u = await buildUser(t.app);
    const p = (await call('POST', '/v1/projects', u.cookie, { meta: { name: 'Audit me' } })).json().data as { id: string };
    await newEntries();
    expect((await call('POST', `/v1/projects/${p.id}/share`, u.cookie, { privacy: 'public' })).statusCode).toBe(200);
    expect(await only('item.share')).toMatchObject({ actorId: u.user.id, targetType: 'project', targetId: p.id, meta: { privacy: 'public' } });
    expect((await call('DELETE', `/v1/projects/${p.id}`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.delete')).toMatchObject({ actorId: u.user.id, targetType: 'project', targetId: p.id });
    expect((await call('POST', `/v1/trash/project/${p.id}/restore`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.restore')).toMatchObject({ actorId: u.user.id, targetType: 'project', targetId: p.id });
    // the item's own restore route and a dataset through the trash: one entry each
    expect((await call('DELETE', `/v1/projects/${p.id}`, u.cookie)).statusCode).toBe(200);
    await newEntries();
    expect((await call('POST', `/v1/projects/${p.id}/restore`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.restore')).toMatchObject({ actorId: u.user.id, targetType: 'project', targetId: p.id });
    const d = (await call('POST', '/v1/datasets', u.cookie, { meta: { name: 'Audit data' }, task: 'detect' })).json().data as { id: string };
    await newEntries();
    expect((await call('DELETE', `/v1/datasets/${d.id}`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.delete')).toMatchObject({ targetType: 'dataset', targetId: d.id });
    expect((await call('POST', `/v1/datasets/${d.id}/restore`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.restore')).toMatchObject({ targetType: 'dataset', targetId: d.id });
    expect((await call('DELETE', `/v1/datasets/${d.id}`, u.cookie)).statusCode).toBe(200);
    await newEntries();
    expect((await call('POST', `/v1/trash/dataset/${d.id}/restore`, u.cookie)).statusCode).toBe(200);
    expect(await only('item.restore')).toMatchObject({ targetType: 'dataset', targetId: d.id });
  });

  it('team membership: invite, accept, role change, removal', async () => {
    const owner = await buildUser(t.app);
    const m = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const team = (await call('POST', '/v1/teams', owner.cookie, { meta: { name: 'Crew' } })).json().data as { id: string };
    await newEntries();
    expect(
      (
        await call('POST', `/api_v1/teams/${team.id}/invite`, owner.cookie, {
          data: { email: m.email, role: 'member' },
          parent: { collection: 'teams', id: team.id, name: 'x' },
        })
      ).statusCode,
    ).toBe(201);
    expect(await only('team.invite')).toMatchObject({ actorId: owner.user.id, targetType: 'team', targetId: team.id });
    expect((await call('POST', `/api_v1/teams/${team.id}/invite/accept`, m.cookie)).statusCode).toBe(200);
    expect(await only('team.invite_accept')).toMatchObject({ actorId: m.user.id, targetId: team.id });
    expect((await call('PATCH', `/v1/teams/${team.id}/members/${m.user.id}`, owner.cookie, { role: 'viewer' })).statusCode).toBe(200);
    expect(await only('team.member_role')).toMatchObject({
      actorId: owner.user.id,
      targetId: team.id,
      userId: m.user.id,
      meta: { member: m.user.id, role: 'viewer' },
    });
    expect((await call('DELETE', `/v1/teams/${team.id}/members/${m.user.id}`, owner.cookie)).statusCode).toBe(200);
    expect(await only('team.member_remove')).toMatchObject({ actorId: owner.user.id, targetId: team.id, userId: m.user.id });
  });

  it('admin actions on accounts: disable, enable, sign out everywhere, delete, restore; a disabled account is locked out', async () => {
    const u = await buildUser(t.app, { password: 'correct-horse-9' });
    const key = (await call('POST', '/v1/api-keys', u.cookie, { name: 'k' })).json().data.key as string;
    await newEntries();
    expect((await call('POST', `/v1/admin/users/${u.user.id}/disable`, admin.cookie, { reason: 'abuse' })).json().data.disabled).not.toBeNull();
    expect(await only('user.disable')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id, meta: { reason: 'abuse' } });
    expect((await call('GET', '/v1/users/me', u.cookie)).statusCode).toBe(401); // sessions ended
    expect((await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { 'x-api-key': key } })).statusCode).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: 'correct-horse-9' } });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error.code).toBe('auth/user-disabled');
    await newEntries(); // the refused sign-in is itself a failure entry
    expect((await call('POST', `/v1/admin/users/${u.user.id}/enable`, admin.cookie)).json().data.disabled).toBeNull();
    expect(await only('user.enable')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id });
    const again = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: 'correct-horse-9' } });
    expect(again.statusCode).toBe(200);
    await newEntries();
    expect((await call('POST', `/v1/admin/users/${u.user.id}/sign-out`, admin.cookie)).json().data.sessions).toBe(0);
    expect(await only('user.sign_out_everywhere')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id });
    expect((await call('POST', `/v1/admin/users/${u.user.id}/delete`, admin.cookie, {})).json().data.deleted).not.toBeNull();
    expect(await only('user.delete')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id });
    expect((await call('POST', `/v1/admin/users/${u.user.id}/restore`, admin.cookie)).json().data.dates.deleted).toBeNull();
    expect(await only('user.restore')).toMatchObject({ actorId: admin.user.id, targetId: u.user.id });
    // an admin can neither disable nor delete themselves
    expect((await call('POST', `/v1/admin/users/${admin.user.id}/disable`, admin.cookie, {})).statusCode).toBe(403);
    expect((await call('POST', `/v1/admin/users/${admin.user.id}/delete`, admin.cookie, {})).statusCode).toBe(403);
    expect(await newEntries()).toEqual([]);
  });

  it('admin mutations of other modules leave one generic entry (flags)', async () => {
    await newEntries();
    expect((await call('PATCH', '/v1/config/flags', admin.cookie, { walletTopUp: true })).statusCode).toBe(200);
    expect(await only('admin.action')).toMatchObject({ actorId: admin.user.id, meta: expect.objectContaining({ method: 'PATCH', route: '/v1/config/flags' }) });
  });
});

describe('append-only, filterable, exportable; users see their own security events', () => {
  it('no API changes or removes an entry; the database refuses UPDATE and DELETE', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const auditPaths = Object.entries(doc.paths).filter(([p]) => /audit|security-events/.test(p));
    expect(auditPaths.length).toBeGreaterThanOrEqual(3);
    for (const [p, ops] of auditPaths)
      expect(
        Object.keys(ops).filter((m) => m !== 'get'),
        p,
      ).toEqual([]);
    const [entry] = await t.database.db.select().from(auditLog).limit(1);
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(method, `/v1/admin/audit/${entry!.id}`, admin.cookie, {});
      expect(res.statusCode, method).toBe(404);
    }
    await expect(t.database.db.update(auditLog).set({ action: 'forged' }).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    await expect(t.database.db.delete(auditLog).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    expect((await t.database.db.select().from(auditLog).where(eq(auditLog.id, entry!.id)))[0]!.action).toBe(entry!.action);
  });

  it('filters by action and actor, pages by keyset, exports CSV', async () => {
    const page = (await call('GET', `/v1/admin/audit?action=auth.sign_in_failed&limit=1`, admin.cookie)).json().data;
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0].action).toBe('auth.sign_in_failed');
    expect(page.next).not.toBeNull();
    const next = (await call('GET', `/v1/admin/audit?action=auth.sign_in_failed&limit=1&before=${page.next}`, admin.cookie)).json().data;
    expect(next.entries[0].seq).toBeLessThan(page.entries[0].seq);
    const byActor = (await call('GET', `/v1/admin/audit?actor=${admin.user.id}&limit=200`, admin.cookie)).json().data.entries as Array<{
      actor: { id: string };
    }>;
    expect(byActor.length).toBeGreaterThan(5);
    expect(byActor.every((e) => e.actor.id === admin.user.id)).toBe(true);
    const csv = await call('GET', '/v1/admin/audit/export?action=user.', admin.cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('time,action,outcome,actor_id,actor,target_type,target_id,target,user_id,ip,user_agent,meta');
    expect(lines.slice(1).every((l) => /^[^,]+,user\./.test(l))).toBe(true);
    expect(lines.length).toBeGreaterThan(5);
  });

  it("a user sees their own security events and nobody else's", async () => {
    const u = await buildUser(t.app, { password: 'correct-horse-9' });
    await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: 'nope-nope-1' } });
    await call('POST', '/v1/api-keys', u.cookie, { name: 'mine' });
    const mine = (await call('GET', '/v1/users/me/security-events', u.cookie)).json().data.entries as Array<{ action: string; userId: string }>;
    expect(mine.map((e) => e.action)).toEqual(['api_key.create', 'auth.sign_in_failed']);
    expect(mine.every((e) => e.userId === u.user.id)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/v1/users/me/security-events' })).statusCode).toBe(401);
  });
});
