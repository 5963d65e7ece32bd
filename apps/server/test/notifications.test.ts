import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { topics } from '@sightline/contracts';
import { mailOutbox, notifications, users } from '../src/platform/db/schema.js';
import type { DomainEvent } from '../src/platform/realtime/event-bus.js';
import { createTestApp, sessionCookie, uniqueEmail, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { linkIn, startSmtpSink } from './support/smtp-sink.js';

/** Notification records and their API (ADR 0028); invite links on the inviter's origin (ADR 0018). */
let t: TestApp;
const published: DomainEvent[] = [];
beforeAll(async () => {
  // PUBLIC_URL unset: links follow the origin of the request (the harness sets one by default).
  t = await createTestApp({ PUBLIC_URL: undefined as unknown as string });
  t.app.ctx.bus.subscribe((e) => published.push(e));
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST';
const HOST = '127.0.0.1:4555';
const req = (cookie: string, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { host: HOST, ...(cookie ? { cookie } : {}) }, payload: payload as never });
type U = Awaited<ReturnType<typeof buildUser>>;
const user = async (email?: string) => {
  const u = await buildUser(t.app, email ? { email } : {});
  await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
  return u;
};
const count = async (u: U) => {
  const res = await req(u.cookie, 'GET', '/v1/notifications/count');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.unread as number;
};
type Item = {
  id: string;
  kind: string;
  read: boolean;
  subject: { kind: string; id: string; name: string };
  detail: string | null;
  invite: { pending: boolean; invitedBy: string; role: string } | null;
  path: string;
};
const page = async (u: U, query = '') => {
  const res = await req(u.cookie, 'GET', `/v1/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { items: Item[]; nextCursor: string | null; unread: number };
};
const newTeam = async (owner: U, name = 'Night shift') => {
  const res = await req(owner.cookie, 'POST', '/v1/teams', { meta: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
};
const invite = (by: U, teamId: string, email: string) => req(by.cookie, 'POST', `/v1/teams/${teamId}/invites`, { email, role: 'member' });
const waitFor = async (pred: (e: DomainEvent) => boolean) => {
  for (let i = 0; i < 100; i++) {
    const hit = published.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no such realtime event');
};

/** Events as the listener reads them: only the fields it uses (the catalogue types the full payloads). */
const emitLoose = (name: string, ownerId: string, data: Record<string, unknown>) => t.app.ctx.events.emit(name as never, ownerId, data as never);

describe('team invites as records', () => {
  it('an invited account sees the count at once (pushed on its topic), a pending invite in the list, and no count once it joined', async () => {
    const owner = await user();
    const invitee = await user();
    const teamId = await newTeam(owner);
    expect(await count(invitee)).toBe(0);
    expect((await invite(owner, teamId, invitee.email)).statusCode).toBe(201);
    const pushed = await waitFor((e) => e.topic === topics.userNotifications(invitee.user.id) && e.event === 'notifications.changed');
    expect(pushed.data).toEqual({ unread: 1 });
    expect(await count(invitee)).toBe(1);
    const { items, unread } = await page(invitee);
    expect(unread).toBe(1);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'team.invite',
      read: false,
      subject: { kind: 'team', id: teamId, name: 'Night shift' },
      invite: { pending: true, role: 'member', invitedBy: owner.user.username },
      path: `/teams/${teamId}`,
    });
    expect((await req(invitee.cookie, 'POST', `/api_v1/teams/${teamId}/invite/accept`)).statusCode).toBe(200);
    // Answered: no longer news, still in the history, no longer actionable.
    expect(await count(invitee)).toBe(0);
    expect((await page(invitee)).items[0]!.invite!.pending).toBe(false);
  });

  it('an invite to an address without an account becomes a record when the account is made', async () => {
    const owner = await user();
    const teamId = await newTeam(owner, 'Early birds');
    const email = uniqueEmail('later');
    expect((await invite(owner, teamId, email)).statusCode).toBe(201);
    const later = await user(email);
    expect(await count(later)).toBe(1);
    const { items } = await page(later);
    expect(items.map((i) => [i.kind, i.subject.name, i.invite?.pending])).toEqual([['team.invite', 'Early birds', true]]);
    // Reading again makes no second record.
    expect((await page(later)).items).toHaveLength(1);
  });

  it('the invite link is on the origin of the inviter’s request, mailed and copyable; only inviters copy it; it opens the invite', async () => {
    const owner = await user();
    const teamId = await newTeam(owner);
    const email = uniqueEmail('link');
    const res = await invite(owner, teamId, email);
    expect(res.statusCode, res.body).toBe(201);
    const link = res.json().data.link as string;
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4555/teams/${teamId}\\?invite=[\\w%-]+$`));
    // The mailed link has the same origin and page, with its own token (the copied one proves no address).
    const mail = (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1))[0]!;
    const mailed = /http\S+\/teams\/\w+\?invite=[\w%-]+/.exec(mail.text)![0];
    expect(mailed.split('?')[0]).toBe(link.split('?')[0]);
    expect(mailed).not.toBe(link);
    // The admins' banner announces the same origin for this request (GET /v1/auth/mail-links).
    await t.database.db
      .update(users)
      .set({ roles: ['admin'] })
      .where(eq(users.id, owner.user.id));
    await expect.poll(async () => (await req(owner.cookie, 'GET', '/v1/auth/mail-links')).statusCode).toBe(200);
    expect((await req(owner.cookie, 'GET', '/v1/auth/mail-links')).json().data.base).toBe(new URL(link).origin);
    const inviteId = res.json().data.id as string;
    const copied = await req(owner.cookie, 'GET', `/v1/teams/${teamId}/invites/${inviteId}/link`);
    expect(copied.statusCode, copied.body).toBe(200);
    expect(copied.json().data.link).toBe(link);
    const stranger = await user();
    expect((await req(stranger.cookie, 'GET', `/v1/teams/${teamId}/invites/${inviteId}/link`)).statusCode).toBe(404);
    expect((await req(owner.cookie, 'GET', `/v1/teams/${teamId}/invites/nope/link`)).statusCode).toBe(404);
    const invitee = await user(email);
    const token = new URL(link).searchParams.get('invite');
    const accepted = await req(invitee.cookie, 'POST', `/api_v1/teams/${teamId}/invite/accept`, { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.role).toBe('member');
  });
});

describe('records from domain events', () => {
  it('dataset, training and export outcomes each make one record for the owner; a run the user stopped makes none', async () => {
    const a = await user();
    const ev = { emit: emitLoose };
    await ev.emit('dataset.processed', a.user.id, { dataset: { id: 'ds1', name: 'Coco bits', status: 'Ready' } });
    await ev.emit('dataset.failed', a.user.id, { dataset: { id: 'ds2', name: 'Broken zip', status: 'Failed' }, error: 'No images found' });
    await ev.emit('training.completed', a.user.id, { model: { id: 'm1', name: 'yolo-small' }, outcome: 'completed' });
    await ev.emit('training.completed', a.user.id, { model: { id: 'm1', name: 'yolo-small' }, outcome: 'cancelled' });
    await ev.emit('training.failed', a.user.id, { model: { id: 'm2' }, error: 'CUDA out of memory' });
    await ev.emit('model.exported', a.user.id, { model: { id: 'm1' }, export: { id: 'x1', format: 'onnx' } });
    await ev.emit('training.epoch', a.user.id, { model: { id: 'm1' }, epoch: 3 });
    const { items, unread } = await page(a);
    expect(unread).toBe(5);
    expect(items.map((i) => [i.kind, i.subject.kind, i.subject.id, i.detail, i.path]).sort()).toEqual(
      [
        ['dataset.failed', 'dataset', 'ds2', 'No images found', '/datasets/ds2'],
        ['dataset.processed', 'dataset', 'ds1', null, '/datasets/ds1'],
        ['export.succeeded', 'model', 'm1', 'onnx', '/models/m1?tab=deploy'],
        ['training.completed', 'model', 'm1', null, '/models/m1?tab=training'],
        ['training.failed', 'model', 'm2', 'CUDA out of memory', '/models/m2?tab=training'],
      ].sort(),
    );
    expect(items.find((i) => i.kind === 'training.completed')!.subject.name).toBe('yolo-small');
  });

  it('records past the retention window go when the next one is made', async () => {
    const a = await user();
    const old = new Date(Date.now() - 100 * 24 * 3600 * 1000);
    await t.database.db
      .insert(notifications)
      .values({ id: 'oldrecord1', userId: a.user.id, kind: 'dataset.processed', subjectKind: 'dataset', subjectId: 'd0', subjectName: 'old', createdAt: old });
    expect((await page(a)).items.map((i) => i.id)).toEqual(['oldrecord1']);
    await emitLoose('dataset.processed', a.user.id, { dataset: { id: 'd1', name: 'new' } });
    expect((await page(a)).items.map((i) => i.subject.id)).toEqual(['d1']);
  });
});

describe('the API: pages, marking read, authorization, bad input', () => {
  it('pages newest first with a cursor, filters unread, marks one and then all read', async () => {
    const a = await user();
    for (let i = 0; i < 5; i++) await emitLoose('dataset.processed', a.user.id, { dataset: { id: `p${i}`, name: `set ${i}` } });
    const first = await page(a, '?limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBeTruthy();
    const second = await page(a, `?limit=2&cursor=${first.nextCursor}`);
    const third = await page(a, `?limit=2&cursor=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items, ...third.items].map((i) => i.subject.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);

    const one = first.items[0]!;
    const marked = await req(a.cookie, 'POST', `/v1/notifications/${one.id}/read`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data.unread).toBe(4);
    expect((await page(a, '?unread=true')).items.map((i) => i.id)).not.toContain(one.id);
    await waitFor((e) => e.topic === topics.userNotifications(a.user.id) && (e.data as { unread: number } | null)?.unread === 4);
    // Marking twice is fine and changes nothing.
    expect((await req(a.cookie, 'POST', `/v1/notifications/${one.id}/read`)).json().data.unread).toBe(4);
    const all = await req(a.cookie, 'POST', '/v1/notifications/read-all');
    expect(all.statusCode).toBe(200);
    expect(all.json().data.unread).toBe(0);
    expect(await count(a)).toBe(0);
    expect((await page(a, '?unread=true')).items).toEqual([]);
  });

  it('another user neither reads nor marks your records (404, as if missing); signed out is 401', async () => {
    const a = await user();
    const b = await user();
    await emitLoose('dataset.failed', a.user.id, { dataset: { id: 'secret1', name: 'Private plans' }, error: 'bad zip' });
    const mine = (await page(a)).items[0]!;
    expect((await page(b)).items).toEqual([]);
    const res = await req(b.cookie, 'POST', `/v1/notifications/${mine.id}/read`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Private plans');
    expect((await req(b.cookie, 'POST', '/v1/notifications/read-all')).statusCode).toBe(200);
    expect(await count(a)).toBe(1);
    expect((await req('', 'GET', '/v1/notifications')).statusCode).toBe(401);
    expect((await req('', 'GET', '/v1/notifications/count')).statusCode).toBe(401);
    expect((await req('', 'POST', `/v1/notifications/${mine.id}/read`)).statusCode).toBe(401);
  });

  it('bad input is a 400 naming what is wrong', async () => {
    const a = await user();
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?unread=maybe', '?cursor=not%20a%20cursor', '?cursor=Zm9v']) {
      const res = await req(a.cookie, 'GET', `/v1/notifications${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('error/validation');
    }
    expect((await req(a.cookie, 'POST', '/v1/notifications/bad%20id!/read')).statusCode).toBe(400);
    expect((await req(a.cookie, 'POST', '/v1/notifications/nosuchrecord/read')).statusCode).toBe(404);
  });
});

describe('signing up from an invite link (a server that mails)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let m: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    m = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await m.close();
    await smtp.close();
  });
  const signUp = (payload: Record<string, unknown>) => m.app.inject({ method: 'POST', url: '/v1/auth/signup', payload });
  const newUser = (email: string) => ({ email, password: 'correct-horse-9', username: `i${Date.now()}${Math.floor(Math.random() * 1e6)}`, firstName: 'Ina' });

  it('the link previews its team signed out; a sign-up with it and the invited address is verified and signed in at once, and joins', async () => {
    // The owner: verified through their mail link, then signed in.
    const ownerEmail = uniqueEmail('owner');
    expect((await signUp(newUser(ownerEmail))).statusCode).toBe(201);
    const verify = linkIn(await smtp.waitFor((x) => x.to.includes(ownerEmail) && /verify/.test(x.text)), /http\S+\/v1\/auth\/verify\?token=[\w%-]+/);
    await m.app.inject({ method: 'GET', url: new URL(verify).pathname + new URL(verify).search });
    const signin = await m.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: ownerEmail, password: 'correct-horse-9' } });
    const owner = sessionCookie(signin);
    const ownerId = signin.json().data.user.id as string;
    await m.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, ownerId));
    const teamId = (await m.app.inject({ method: 'POST', url: '/v1/teams', headers: { cookie: owner }, payload: { meta: { name: 'Harbour' } } })).json().data
      .id as string;

    const email = uniqueEmail('invited');
    expect((await m.app.inject({ method: 'POST', url: `/v1/teams/${teamId}/invites`, headers: { cookie: owner }, payload: { email } })).statusCode).toBe(201);
    const link = linkIn(await smtp.waitFor((x) => x.to.includes(email) && /invited you/.test(x.text)), /http\S+\/teams\/\w+\?invite=[\w%-]+/);
    const token = new URL(link).searchParams.get('invite')!;

    const preview = await m.app.inject({ method: 'GET', url: `/v1/teams/${teamId}/invite-preview?token=${encodeURIComponent(token)}` });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ team: { id: teamId, name: 'Harbour' }, email, role: 'member' });
    expect((await m.app.inject({ method: 'GET', url: `/v1/teams/${teamId}/invite-preview?token=wrong-token-123` })).statusCode).toBe(404);
    expect((await m.app.inject({ method: 'GET', url: `/v1/teams/${teamId}/invite-preview?token=x` })).statusCode).toBe(400);

    // Another address with the same link: an ordinary sign-up (verification mail, no session).
    const other = await signUp({ ...newUser(uniqueEmail('other')), invite: { team: teamId, token } });
    expect(other.statusCode).toBe(201);
    expect(other.json().data.verificationRequired).toBe(true);

    const res = await signUp({ ...newUser(email), invite: { team: teamId, token } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.verificationRequired).toBe(false);
    const cookie = sessionCookie(res);
    const me = await m.app.inject({ method: 'GET', url: '/v1/users/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const joined = await m.app.inject({ method: 'POST', url: `/api_v1/teams/${teamId}/invite/accept`, headers: { cookie }, payload: { token } });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().data.role).toBe('member');
    expect((await signUp({ ...newUser(uniqueEmail('bad')), invite: { team: teamId, token: 'short' } })).statusCode).toBe(400);
  });

  it('a copied invite link opens the invite but proves no address: its inviter has seen it', async () => {
    const ownerEmail = uniqueEmail('owner2');
    const owner = await signUp(newUser(ownerEmail));
    const ownerId = owner.json().data.user.id as string;
    await m.database.db.update(users).set({ plan: 'pro', emailVerifiedAt: new Date() }).where(eq(users.id, ownerId));
    const cookie = sessionCookie(await m.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: ownerEmail, password: 'correct-horse-9' } }));
    const teamId = (await m.app.inject({ method: 'POST', url: '/v1/teams', headers: { cookie }, payload: { meta: { name: 'Quay' } } })).json().data
      .id as string;
    const email = uniqueEmail('copied');
    const made = await m.app.inject({ method: 'POST', url: `/v1/teams/${teamId}/invites`, headers: { cookie }, payload: { email } });
    const token = new URL(made.json().data.link as string).searchParams.get('invite')!;
    const preview = await m.app.inject({ method: 'GET', url: `/v1/teams/${teamId}/invite-preview?token=${encodeURIComponent(token)}` });
    expect(preview.json().data.email).toBe(email);
    const res = await signUp({ ...newUser(email), invite: { team: teamId, token } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.verificationRequired).toBe(true);
  });
});
