import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { TEAM_INVITE_TTL_MS, topics } from '@sightline/contracts';
import { analyticsEvents, mailOutbox, teamMembers, users } from '../src/platform/db/schema.js';
import type { DomainEvent } from '../src/platform/realtime/event-bus.js';
import { createTestApp, multipart, uniqueEmail, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

let t: TestApp;
const events: DomainEvent[] = [];
beforeAll(async () => {
  t = await createTestApp();
  t.app.ctx.bus.subscribe((e) => events.push(e));
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const req = (cookie: string, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload: payload as never });

async function user(plan: 'free' | 'pro' | 'enterprise' = 'free', email?: string) {
  const u = await buildUser(t.app, email ? { email } : {});
  if (plan !== 'free') await t.database.db.update(users).set({ plan }).where(eq(users.id, u.user.id));
  return u;
}
type U = Awaited<ReturnType<typeof user>>;

async function team(owner: U, meta: object = { name: 'Vision crew', description: 'we label' }) {
  const res = await req(owner.cookie, 'POST', '/v1/teams', { meta });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; meta: { name: string; description: string }; membersCount: number; abilities: Record<string, boolean>; role: string };
}
const invite = (by: U, teamId: string, email: string, role = 'member') =>
  req(by.cookie, 'POST', `/api_v1/teams/${teamId}/invite`, { data: { email, role }, parent: { collection: 'teams', id: teamId, name: 'x' } });
async function member(owner: U, teamId: string, who: U, role = 'member') {
  expect((await invite(owner, teamId, who.email, role)).statusCode).toBe(201);
  const res = await req(who.cookie, 'POST', `/api_v1/teams/${teamId}/invite/accept`);
  expect(res.statusCode, res.body).toBe(200);
}
const lastMailTo = async (email: string) =>
  (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1))[0];
const waitForEvent = async (pred: (e: DomainEvent) => boolean) => {
  for (let i = 0; i < 100; i++) {
    const hit = events.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no such realtime event');
};

describe('create, read, edit (spec §5 validation)', () => {
  it('creates a team on pro: owner is a member, count 1, owner abilities', async () => {
    const a = await user('pro');
    const created = await team(a);
    expect(created).toMatchObject({ meta: { name: 'Vision crew', description: 'we label', image: null }, membersCount: 1, role: 'owner', invited: false });
    expect(created.abilities).toMatchObject({ canEdit: true, canDelete: true, canInvite: true, canRemove: true, canLeave: false });
    const list = await req(a.cookie, 'GET', '/v1/teams');
    expect(list.json().data.map((x: { id: string }) => x.id)).toEqual([created.id]);
    const names = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, a.user.id))).map((e) => e.name);
    expect(names).toContain('create_team');
  });

  it('trims; a blank name is generated; 42 characters pass, 43 fail; description 100 passes, 101 fails', async () => {
    const a = await user('enterprise');
    expect((await team(a, { name: '   Spaced   ', description: '  d  ' })).meta).toMatchObject({ name: 'Spaced', description: 'd' });
    const blank = await team(a, { name: '   ' });
    expect(blank.meta.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect((await team(a, {})).meta.name.length).toBeGreaterThan(0);
    expect((await team(a, { name: 'n'.repeat(42), description: 'd'.repeat(100) })).meta.name).toHaveLength(42);
    const long = await req(a.cookie, 'POST', '/v1/teams', { meta: { name: 'n'.repeat(43) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('error/validation');
    const longDesc = await req(a.cookie, 'POST', '/v1/teams', { meta: { name: 'ok', description: 'd'.repeat(101) } });
    expect(longDesc.statusCode).toBe(400);
    // 42 after trimming is fine
    expect((await team(a, { name: ` ${'n'.repeat(42)} ` })).meta.name).toHaveLength(42);
  });

  it('creation needs pro or enterprise and the teamsCollaboration flag; the server says why', async () => {
    const free = await user('free');
    const res = await req(free.cookie, 'POST', '/v1/teams', { meta: { name: 'Nope' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('team/plan-required');
    expect((await req(free.cookie, 'GET', '/v1/teams/creation')).json().data).toEqual({ allowed: false, reason: 'plan' });
    const pro = await user('pro');
    expect((await req(pro.cookie, 'GET', '/v1/teams/creation')).json().data).toEqual({ allowed: true, reason: null });
    await t.app.ctx.db.execute(`UPDATE feature_flags SET enabled = false WHERE name = 'teamsCollaboration'` as never);
    try {
      const off = await req(pro.cookie, 'POST', '/v1/teams', { meta: { name: 'Off' } });
      expect(off.statusCode).toBe(403);
      expect(off.json().error.code).toBe('team/disabled');
      expect((await req(pro.cookie, 'GET', '/v1/teams/creation')).json().data).toEqual({ allowed: false, reason: 'flag' });
    } finally {
      await t.app.ctx.db.execute(`UPDATE feature_flags SET enabled = true WHERE name = 'teamsCollaboration'` as never);
    }
    expect((await req('', 'GET', '/v1/teams')).statusCode).toBe(401);
  });

  it('edit by owner and admin; not by a member; missing and outsiders get 404', async () => {
    const [a, b, c, d] = [await user('pro'), await user(), await user(), await user()];
    const tm = await team(a);
    await member(a, tm.id, b, 'admin');
    await member(a, tm.id, c, 'member');
    const byAdmin = await req(b.cookie, 'PATCH', `/v1/teams/${tm.id}`, { meta: { description: '  new  ' } });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().data.meta.description).toBe('new');
    expect((await req(c.cookie, 'PATCH', `/v1/teams/${tm.id}`, { meta: { name: 'Mine' } })).statusCode).toBe(403);
    expect((await req(d.cookie, 'PATCH', `/v1/teams/${tm.id}`, { meta: { name: 'Mine' } })).statusCode).toBe(404);
    expect((await req(d.cookie, 'GET', `/v1/teams/${tm.id}`)).statusCode).toBe(404);
    expect((await req(a.cookie, 'GET', '/v1/teams/aaaaaaaaaaaaaaaaaaaa')).statusCode).toBe(404);
    expect((await req(a.cookie, 'PATCH', `/v1/teams/${tm.id}`, { meta: { name: 'x'.repeat(43) } })).statusCode).toBe(400);
    expect((await req(a.cookie, 'PATCH', `/v1/teams/${tm.id}`, { meta: { description: 'x'.repeat(101) } })).statusCode).toBe(400);
    const asMember = (await req(c.cookie, 'GET', `/v1/teams/${tm.id}`)).json().data;
    expect(asMember).toMatchObject({ role: 'member', membersCount: 3, abilities: { canEdit: false, canDelete: false, canInvite: false, canLeave: true } });
  });

  it('team image through the drop zone lands at users/{uid}/teams/{id}; non-images are refused', async () => {
    const a = await user('pro');
    const tm = await team(a);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const mp = multipart({}, { filename: 'logo.png', content: png, contentType: 'image/png' });
    const res = await t.app.inject({ method: 'POST', url: `/v1/teams/${tm.id}/image`, headers: { ...mp.headers, cookie: a.cookie }, payload: mp.payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.meta.image.path).toBe(`users/${a.user.id}/teams/${tm.id}`);
    expect(await t.app.ctx.blobs.head(`users/${a.user.id}/teams/${tm.id}`)).not.toBeNull();
    const txt = multipart({}, { filename: 'x.txt', content: Buffer.from('hi'), contentType: 'text/plain' });
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/teams/${tm.id}/image`, headers: { ...txt.headers, cookie: a.cookie }, payload: txt.payload })).statusCode,
    ).toBe(400);

    // The image's link is short-lived and dies with the team (ADR 0014: links bound to access).
    const url = res.json().data.meta.image.url as string;
    const left = Number(new URL(url, 'http://x').searchParams.get('exp')) * 1000 - t.clock.now().getTime();
    expect(left).toBeGreaterThan(5 * 60_000);
    expect(left).toBeLessThanOrEqual(20 * 60_000);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await req(a.cookie, 'DELETE', `/api_v1/teams/${tm.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('invite, accept, reject (spec §4 team flow)', () => {
  it('invite by mail with a link to the invite; accept raises the member count; the team appears', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    const res = await invite(a, tm.id, b.email.toUpperCase(), 'member');
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json().data;
    expect(inv).toMatchObject({ email: b.email, role: 'member', parent: { collection: 'teams', id: tm.id, name: 'Vision crew' } });
    expect(new Date(inv.expiresAt).getTime() - new Date(inv.createdAt).getTime()).toBe(TEAM_INVITE_TTL_MS);
    const mail = await lastMailTo(b.email);
    expect(mail?.text).toMatch(new RegExp(`/teams/${tm.id}\\?invite=`));
    await waitForEvent((e) => e.topic === topics.user(b.user.id) && e.event === 'team.invited');
    // B sees the team as invited (Join), and the invite among their notifications
    const listed = (await req(b.cookie, 'GET', '/v1/teams')).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: tm.id, invited: true, role: null, membersCount: 1 });
    expect((await req(b.cookie, 'GET', '/v1/teams/invites')).json().data.map((i: { id: string }) => i.id)).toEqual([inv.id]);
    // A lists the pending invite
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}/invites`)).json().data).toHaveLength(1);
    const token = new URL(mail!.text.match(/https?:\/\/\S+\/teams\/\S+/)![0]).searchParams.get('invite')!;
    const accepted = await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`, { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({ membersCount: 2, role: 'member', invited: false });
    const members = (await req(a.cookie, 'GET', `/v1/teams/${tm.id}/members`)).json().data;
    expect(members.map((m: { uid: string; role: string }) => [m.uid, m.role])).toEqual([
      [a.user.id, 'owner'],
      [b.user.id, 'member'],
    ]);
    expect(members[1]).toMatchObject({ email: b.email, username: b.user.username, name: 'Test' });
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}/invites`)).json().data).toHaveLength(0);
    // accepting again changes nothing (already a member); rejecting a used invite is refused
    const again = await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`, { token });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.membersCount).toBe(2);
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/reject`, { token })).statusCode).toBe(409);
  });

  it('reject: the team disappears from the invitee list', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await invite(a, tm.id, b.email);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(1);
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/reject`)).statusCode).toBe(200);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(0);
    expect((await req(b.cookie, 'GET', `/v1/teams/${tm.id}`)).statusCode).toBe(404);
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`)).statusCode).toBe(404);
  });

  it('invite by a non-admin is refused; by an admin allowed; bad inputs', async () => {
    const [a, b, c, d] = [await user('pro'), await user(), await user(), await user()];
    const tm = await team(a);
    await member(a, tm.id, b, 'member');
    await member(a, tm.id, c, 'admin');
    const byMember = await invite(b, tm.id, 'someone@example.com');
    expect(byMember.statusCode).toBe(403);
    expect((await invite(d, tm.id, 'someone@example.com')).statusCode).toBe(404);
    expect((await invite(c, tm.id, 'someone@example.com', 'viewer')).statusCode).toBe(201);
    expect((await invite(a, tm.id, 'someone@example.com')).statusCode).toBe(409); // already invited
    expect((await invite(a, tm.id, b.email)).json().error.code).toBe('team/already-member');
    expect((await invite(a, tm.id, 'not-an-email')).statusCode).toBe(400);
    expect((await invite(a, tm.id, 'x@example.com', 'owner')).statusCode).toBe(400);
    const wrongParent = await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/invite`, {
      data: { email: 'y@example.com' },
      parent: { collection: 'teams', id: 'other' },
    });
    expect(wrongParent.statusCode).toBe(400);
    const noParent = await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/invite`, { data: { email: 'y@example.com' } });
    expect(noParent.statusCode).toBe(400);
  });

  it('accept of an expired invite (7 days) and of someone else invite are refused', async () => {
    const [a, b, c] = [await user('pro'), await user(), await user()];
    const tm = await team(a);
    await invite(a, tm.id, b.email);
    const token = new URL((await lastMailTo(b.email))!.text.match(/https?:\/\/\S+\/teams\/\S+/)![0]).searchParams.get('invite')!;
    // C holds B's link: not C's invite
    const other = await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`, { token });
    expect(other.statusCode).toBe(403);
    expect((await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`)).statusCode).toBe(404);
    expect((await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/reject`, { token })).statusCode).toBe(403);
    t.clock.advance(TEAM_INVITE_TTL_MS + 1000);
    try {
      const expired = await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`, { token });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().error.code).toBe('team/invite-expired');
      expect((await req(b.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(0);
      // an expired invite does not block a new one
      expect((await invite(a, tm.id, b.email)).statusCode).toBe(201);
    } finally {
      t.clock.advance(-(TEAM_INVITE_TTL_MS + 1000));
    }
  });

  it('an address without an account: the invite waits for sign-up', async () => {
    const a = await user('pro');
    const tm = await team(a);
    const email = uniqueEmail('later');
    expect((await invite(a, tm.id, email)).statusCode).toBe(201);
    const b = await user('free', email);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data[0]).toMatchObject({ id: tm.id, invited: true });
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`)).statusCode).toBe(200);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data[0]).toMatchObject({ id: tm.id, role: 'member' });
  });

  it('concurrent accept of the same invite leaves one member row', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await invite(a, tm.id, b.email);
    const results = await Promise.all(Array.from({ length: 6 }, () => req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/invite/accept`)));
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    const rows = await t.database.db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, tm.id), eq(teamMembers.userId, b.user.id)));
    expect(rows).toHaveLength(1);
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}`)).json().data.membersCount).toBe(2);
  });
});

describe('remove, cancel, leave, roles, delete', () => {
  it('remove with {member} and cancel with {invite}; the owner cannot be removed', async () => {
    const [a, b, c] = [await user('pro'), await user(), await user()];
    const tm = await team(a);
    await member(a, tm.id, b);
    await member(a, tm.id, c, 'admin');
    const inv = (await invite(a, tm.id, 'pending@example.com')).json().data;
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { member: c.user.id })).statusCode).toBe(403);
    const owner = await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { member: { uid: a.user.id } });
    expect(owner.statusCode).toBe(403);
    expect((await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { member: { uid: b.user.id } })).statusCode).toBe(200);
    await waitForEvent((e) => e.topic === topics.user(b.user.id) && e.event === 'team.left');
    expect((await req(b.cookie, 'GET', `/v1/teams/${tm.id}`)).statusCode).toBe(404);
    expect((await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { invite: { id: inv.id } })).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}/invites`)).json().data).toHaveLength(0);
    expect((await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { invite: inv.id })).statusCode).toBe(404);
    await invite(a, tm.id, 'bymail@example.com');
    expect((await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { invite: 'bymail@example.com' })).statusCode).toBe(200);
    expect((await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/remove`, { nothing: true })).statusCode).toBe(400);
    // resource API: cancel and remove
    const inv2 = (await req(a.cookie, 'POST', `/v1/teams/${tm.id}/invites`, { email: 'r@example.com' })).json().data;
    expect((await req(a.cookie, 'DELETE', `/v1/teams/${tm.id}/invites/${inv2.id}`)).statusCode).toBe(200);
    expect((await req(a.cookie, 'DELETE', `/v1/teams/${tm.id}/members/${c.user.id}`)).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}`)).json().data.membersCount).toBe(1);
  });

  it('leave; the last admin cannot leave until ownership is transferred', async () => {
    const [a, b, c] = [await user('pro'), await user(), await user()];
    const tm = await team(a);
    await member(a, tm.id, b);
    await member(a, tm.id, c, 'admin');
    const ownerLeaves = await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`);
    expect(ownerLeaves.statusCode).toBe(409);
    expect(ownerLeaves.json().error.code).toBe('team/last-admin');
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(200);
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(404);
    // only the owner transfers
    expect((await req(c.cookie, 'PATCH', `/v1/teams/${tm.id}/members/${c.user.id}`, { role: 'owner' })).statusCode).toBe(403);
    expect((await req(a.cookie, 'PATCH', `/v1/teams/${tm.id}/members/${c.user.id}`, { role: 'owner' })).statusCode).toBe(200);
    const now = (await req(a.cookie, 'GET', `/v1/teams/${tm.id}`)).json().data;
    expect(now).toMatchObject({ owner: { uid: c.user.id }, role: 'admin' });
    // C is owner now and alone with A as admin: C cannot leave, A can
    expect((await req(c.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(409);
    expect((await req(a.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(0);
    const names = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, a.user.id))).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['create_team', 'send_team_invite', 'transfer_team', 'leave_team']));
  });

  it('a demoted last admin: the team keeps one admin', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await member(a, tm.id, b, 'admin');
    expect((await req(a.cookie, 'PATCH', `/v1/teams/${tm.id}/members/${b.user.id}`, { role: 'viewer' })).statusCode).toBe(200);
    expect((await req(b.cookie, 'GET', `/v1/teams/${tm.id}`)).json().data.role).toBe('viewer');
    expect((await req(a.cookie, 'PATCH', `/v1/teams/${tm.id}/members/${a.user.id}`, { role: 'member' })).statusCode).toBe(403);
  });

  it('delete: owner only (spec DELETE /api_v1/teams/{id}); members lose it; items go back to their owners', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await member(a, tm.id, b, 'admin');
    const p = (await req(b.cookie, 'POST', '/v1/projects', { meta: { name: 'Shared' } })).json().data;
    expect((await req(b.cookie, 'POST', `/v1/teams/${tm.id}/items`, { kind: 'project', id: p.id })).statusCode).toBe(200);
    expect((await req(b.cookie, 'DELETE', `/api_v1/teams/${tm.id}`)).statusCode).toBe(403);
    expect((await req(a.cookie, 'DELETE', `/api_v1/teams/${tm.id}`)).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', `/v1/teams/${tm.id}`)).statusCode).toBe(404);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(0);
    expect((await req(b.cookie, 'GET', `/v1/projects/${p.id}`)).json().data.team.id).toBeNull();
    expect((await req(a.cookie, 'DELETE', `/api_v1/teams/${tm.id}`)).statusCode).toBe(404);
    const tm2 = await team(a);
    expect((await req(a.cookie, 'DELETE', `/v1/teams/${tm2.id}`)).statusCode).toBe(200);
  });

  it('a team of a deleted user is gone for everyone', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await member(a, tm.id, b);
    await t.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, a.user.id));
    expect((await req(b.cookie, 'GET', `/v1/teams/${tm.id}`)).statusCode).toBe(404);
    expect((await req(b.cookie, 'GET', '/v1/teams')).json().data).toHaveLength(0);
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(404);
    expect((await invite(b, tm.id, 'z@example.com')).statusCode).toBe(404);
  });
});

describe('team items', () => {
  it('a project added to a team brings its models; members see and edit them; viewers read; removing clears the team', async () => {
    const [a, b, v, o] = [await user('pro'), await user(), await user(), await user()];
    const tm = await team(a);
    await member(a, tm.id, b, 'member');
    await member(a, tm.id, v, 'viewer');
    const p = (await req(a.cookie, 'POST', '/v1/projects', { meta: { name: 'Cats' } })).json().data;
    const m = (await req(a.cookie, 'POST', '/v1/models', { project: { id: p.id }, meta: { name: 'yolo' } })).json().data;
    // only the owner shares; a viewer cannot add; an outsider gets 404
    const notMine = await req(b.cookie, 'POST', `/v1/teams/${tm.id}/items`, { kind: 'project', id: p.id });
    expect([403, 404]).toContain(notMine.statusCode);
    expect((await req(o.cookie, 'POST', `/v1/teams/${tm.id}/items`, { kind: 'project', id: p.id })).statusCode).toBe(404);
    expect((await req(a.cookie, 'POST', `/v1/teams/${tm.id}/items`, { kind: 'project', id: p.id })).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', `/v1/models/${m.id}`)).json().data.team).toMatchObject({ id: tm.id });

    const items = (await req(b.cookie, 'GET', `/v1/teams/${tm.id}/items`)).json().data;
    expect(items.projects.map((x: { id: string }) => x.id)).toEqual([p.id]);
    expect(items.models.map((x: { id: string }) => x.id)).toEqual([m.id]);
    expect((await req(b.cookie, 'GET', `/v1/projects/${p.id}`)).statusCode).toBe(200);
    expect((await req(b.cookie, 'PATCH', `/v1/projects/${p.id}`, { meta: { name: 'Cats 2' } })).statusCode).toBe(200);
    expect((await req(v.cookie, 'GET', `/v1/models/${m.id}`)).statusCode).toBe(200);
    expect((await req(v.cookie, 'PATCH', `/v1/projects/${p.id}`, { meta: { name: 'Nope' } })).statusCode).toBe(403);
    expect((await req(o.cookie, 'GET', `/v1/projects/${p.id}`)).statusCode).toBe(404);
    expect((await req(o.cookie, 'GET', `/v1/teams/${tm.id}/items`)).statusCode).toBe(404);

    // a member's new model in the team project belongs to the team: the owner lists it too
    const mb = (await req(b.cookie, 'POST', '/v1/models', { project: { id: p.id }, meta: { name: 'by-b' } })).json().data;
    expect(mb.team.id).toBe(tm.id);
    expect((await req(a.cookie, 'GET', '/v1/models')).json().data.results.map((x: { id: string }) => x.id)).toContain(mb.id);

    // a model moved into the team project joins the team; moved out, it leaves
    const loose = (await req(a.cookie, 'POST', '/v1/projects', { meta: { name: 'Loose' } })).json().data;
    const lm = (await req(a.cookie, 'POST', '/v1/models', { project: { id: loose.id }, meta: { name: 'loose' } })).json().data;
    expect((await req(a.cookie, 'POST', `/v1/models/${lm.id}/transfer`, { projectId: p.id })).json().data.team.id).toBe(tm.id);
    expect((await req(a.cookie, 'POST', `/v1/models/${lm.id}/transfer`, { projectId: loose.id })).json().data.team.id).toBeNull();

    // lists of members include the team's items
    const bProjects = (await req(b.cookie, 'GET', '/v1/projects')).json().data.results.map((x: { id: string }) => x.id);
    expect(bProjects).toContain(p.id);
    const bModels = (await req(b.cookie, 'GET', '/v1/models')).json().data.results.map((x: { id: string }) => x.id);
    expect(bModels).toContain(m.id);

    // B leaves: the items drop out of B's lists, and an event tells B's browser at once
    expect((await req(b.cookie, 'POST', `/api_v1/teams/${tm.id}/leave`)).statusCode).toBe(200);
    await waitForEvent((e) => e.topic === topics.user(b.user.id) && e.event === 'team.left');
    expect((await req(b.cookie, 'GET', '/v1/projects')).json().data.results.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await req(b.cookie, 'GET', `/v1/projects/${p.id}`)).statusCode).toBe(404);

    // removing the project clears the team on it and its models
    expect((await req(v.cookie, 'DELETE', `/v1/teams/${tm.id}/items/project/${p.id}`)).statusCode).toBe(403);
    expect((await req(a.cookie, 'DELETE', `/v1/teams/${tm.id}/items/project/${p.id}`)).statusCode).toBe(200);
    expect((await req(a.cookie, 'GET', `/v1/models/${m.id}`)).json().data.team?.id ?? null).toBeNull();
    expect((await req(v.cookie, 'GET', `/v1/projects/${p.id}`)).statusCode).toBe(404);
  });

  it('storage of team items counts against the team owner', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    await member(a, tm.id, b);
    const { storageUsed } = await import('../src/modules/storage/usage.service.js');
    const before = { a: await storageUsed(t.app.ctx, a.user.id), b: await storageUsed(t.app.ctx, b.user.id) };
    const d = (await req(b.cookie, 'POST', '/v1/datasets', { meta: { name: 'Big' } })).json().data;
    await t.app.ctx.db.execute(`UPDATE datasets SET bytes = 5000 WHERE id = '${d.id}'` as never);
    expect(await storageUsed(t.app.ctx, b.user.id)).toBe(before.b + 5000);
    expect((await req(b.cookie, 'POST', `/v1/teams/${tm.id}/items`, { kind: 'dataset', id: d.id })).statusCode).toBe(200);
    expect(await storageUsed(t.app.ctx, b.user.id)).toBe(before.b);
    expect(await storageUsed(t.app.ctx, a.user.id)).toBe(before.a + 5000);
  });
});

describe('API keys and OpenAPI', () => {
  it('an API key acts with its owner rights on teams', async () => {
    const [a, b] = [await user('pro'), await user()];
    const tm = await team(a);
    const key = (await req(a.cookie, 'POST', '/v1/api-keys', { name: 'ci' })).json().data;
    const withKey = (method: Method, url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: { 'x-api-key': key.key }, payload: payload as never });
    expect((await withKey('GET', '/v1/teams')).json().data.map((x: { id: string }) => x.id)).toEqual([tm.id]);
    expect((await withKey('POST', `/v1/teams/${tm.id}/invites`, { email: b.email })).statusCode).toBe(201);
    expect((await withKey('GET', `/v1/teams/${tm.id}/invites`)).json().data).toHaveLength(1);
  });

  it('every team call is in the OpenAPI document with its response schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    for (const [path, method] of [
      ['/v1/teams', 'get'],
      ['/v1/teams', 'post'],
      ['/v1/teams/{id}', 'get'],
      ['/v1/teams/{id}', 'patch'],
      ['/v1/teams/{id}/members', 'get'],
      ['/v1/teams/{id}/invites', 'post'],
      ['/api_v1/teams/{id}', 'delete'],
      ['/api_v1/teams/{id}/invite', 'post'],
      ['/api_v1/teams/{id}/invite/accept', 'post'],
      ['/api_v1/teams/{id}/invite/reject', 'post'],
      ['/api_v1/teams/{id}/leave', 'post'],
      ['/api_v1/teams/{id}/remove', 'post'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toContain('teams');
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    }
    expect(doc.paths['/v1/teams/{id}'].get.responses['200'].content['application/json'].schema.properties.data.properties.membersCount).toBeDefined();
  });
});
