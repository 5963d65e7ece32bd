import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { analyticsEvents, mailOutbox, users } from '../src/platform/db/schema.js';
import { createTestApp, sessionCookie, uniqueEmail, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload?: object, cookie?: string) => t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('sign-up (no SMTP: verification not required)', () => {
  it('the first account of an empty instance is an admin, later ones are not', async () => {
    const first = await buildUser(t.app);
    expect(first.user.roles).toEqual(['admin']);
    const second = await buildUser(t.app);
    expect(second.user.roles).toEqual([]);
  });

  it('creates the account, signs in, and records sign_up', async () => {
    const email = uniqueEmail();
    const res = await post('/v1/auth/signup', { email: email.toUpperCase(), password: 'abcdefg1', username: 'newbie_1', firstName: 'Neo' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.data.result).toBe('signup-successful');
    expect(body.data.user.email).toBe(email);
    expect(body.data.user.image).toMatch(/^\/robots\/robot-[1-6]\.svg$/);
    expect(JSON.stringify(body)).not.toContain('password_hash');
    const cookie = res.headers['set-cookie'] as string;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const me = await get('/v1/users/me', { cookie: sessionCookie(res) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.username).toBe('newbie_1');
    const events = await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, body.data.user.id));
    expect(events.map((e) => e.name)).toContain('sign_up');
  });

  it('the same email always gets the same robot image', async () => {
    const { robotImageFor } = await import('@sightline/contracts');
    expect(robotImageFor('Same@Example.com')).toBe(robotImageFor('same@example.com'));
    const all = new Set(Array.from({ length: 60 }, (_, i) => robotImageFor(`p${i}@x.io`)));
    expect(all.size).toBe(6);
  });

  it('rejects a duplicate email with error/in-use and writes nothing', async () => {
    const { email } = await buildUser(t.app);
    const before = (await t.database.db.select().from(users)).length;
    const res = await post('/v1/auth/signup', { email, password: 'abcdefg1', username: 'someone_else', firstName: 'X' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('error/in-use');
    expect((await t.database.db.select().from(users)).length).toBe(before);
  });

  it('rejects a duplicate username (case-insensitive)', async () => {
    const a = await buildUser(t.app);
    const res = await post('/v1/auth/signup', { email: uniqueEmail(), password: 'abcdefg1', username: a.user.username.toUpperCase(), firstName: 'X' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('error/username-in-use');
  });

  it.each([
    ['empty', ''],
    ['too short', 'ab1'],
    ['no digit', 'abcdefghij'],
  ])('rejects a weak password (%s) with auth/weak-password', async (_name, password) => {
    const email = uniqueEmail();
    const res = await post('/v1/auth/signup', { email, password, username: `w${Date.now()}`, firstName: 'W' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('auth/weak-password');
    expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('rejects a bad email and missing fields with error/validation', async () => {
    const res = await post('/v1/auth/signup', { email: 'not-an-email', password: 'abcdefg1', username: 'valid_name', firstName: 'V' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('error/validation');
    expect(res.json().error.message).toMatch(/email/i);
    const res2 = await post('/v1/auth/signup', {});
    expect(res2.statusCode).toBe(400);
  });

  it('rejects oversized bodies with error/payload-too-large', async () => {
    const res = await post('/v1/auth/signup', { email: uniqueEmail(), password: 'abcdefg1', username: 'big', firstName: 'x'.repeat(40_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('error/payload-too-large');
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password and records last login', async () => {
    const u = await buildUser(t.app);
    const res = await post('/v1/auth/signin', { email: u.email, password: u.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.result).toBe('signin-successful');
    const me = await get('/v1/users/me', { cookie: sessionCookie(res) });
    expect(me.json().data.dates.lastLogin).not.toBeNull();
  });

  it('a wrong password and an unknown email get the same auth/invalid-credential', async () => {
    const u = await buildUser(t.app);
    const wrong = await post('/v1/auth/signin', { email: u.email, password: 'nope-nope-1' });
    const unknown = await post('/v1/auth/signin', { email: uniqueEmail(), password: 'nope-nope-1' });
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json().error.code).toBe('auth/invalid-credential');
    }
  });

  it('sign-out ends the session', async () => {
    const u = await buildUser(t.app);
    expect((await get('/v1/users/me', { cookie: u.cookie })).statusCode).toBe(200);
    const out = await post('/v1/auth/signout', undefined, u.cookie);
    expect(out.statusCode).toBe(200);
    const me = await get('/v1/users/me', { cookie: u.cookie });
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe('error/unauthorized');
  });

  it('sessions expire', async () => {
    const u = await buildUser(t.app);
    t.clock.advance(31 * 86_400_000);
    try {
      expect((await get('/v1/users/me', { cookie: u.cookie })).statusCode).toBe(401);
    } finally {
      t.clock.advance(-31 * 86_400_000);
    }
  });
});

describe('profile, password, email', () => {
  it('updates the profile and records update_profile', async () => {
    const u = await buildUser(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/users/me',
      headers: { cookie: u.cookie },
      payload: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.firstName).toBe('Ada');
    const events = await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id));
    expect(events.map((e) => e.name)).toContain('update_profile');
  });

  it('updates the password: old one stops working, update_password recorded', async () => {
    const u = await buildUser(t.app);
    const bad = await post('/v1/users/me/password', { currentPassword: 'wrong-one-1', newPassword: 'brand-new-2' }, u.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('auth/wrong-password');
    const weak = await post('/v1/users/me/password', { currentPassword: u.password, newPassword: 'short' }, u.cookie);
    expect(weak.json().error.code).toBe('auth/weak-password');
    const good = await post('/v1/users/me/password', { currentPassword: u.password, newPassword: 'brand-new-2' }, u.cookie);
    expect(good.statusCode).toBe(200);
    expect((await post('/v1/auth/signin', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await post('/v1/auth/signin', { email: u.email, password: 'brand-new-2' })).statusCode).toBe(200);
    const events = await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id));
    expect(events.map((e) => e.name)).toContain('update_password');
  });

  it('changes email only when different, with re-authentication', async () => {
    const u = await buildUser(t.app);
    const other = await buildUser(t.app);
    const same = await post('/v1/users/me/email', { email: u.email, password: u.password }, u.cookie);
    expect(same.json().error.code).toBe('error/same-email');
    const inUse = await post('/v1/users/me/email', { email: other.email, password: u.password }, u.cookie);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.code).toBe('error/in-use');
    const wrongPw = await post('/v1/users/me/email', { email: uniqueEmail(), password: 'nope-nope-1' }, u.cookie);
    expect(wrongPw.json().error.code).toBe('auth/wrong-password');
    const fresh = uniqueEmail('moved');
    const ok = await post('/v1/users/me/email', { email: fresh, password: u.password }, u.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.email).toBe(fresh);
  });

  it('feedback is saved with created and updated dates', async () => {
    const u = await buildUser(t.app);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/users/me/feedback',
      headers: { cookie: u.cookie },
      payload: { rating: 4, review: '  great tool  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.feedback).toMatchObject({ rating: 4, review: 'great tool' });
    expect(res.json().data.feedback.dates.created).toBeTruthy();
    const tooLong = await t.app.inject({ method: 'PUT', url: '/v1/users/me/feedback', headers: { cookie: u.cookie }, payload: { rating: 6, review: 'x' } });
    expect(tooLong.statusCode).toBe(400);
  });

  it('every account endpoint refuses anonymous callers', async () => {
    for (const [method, url] of [
      ['GET', '/v1/users/me'],
      ['PATCH', '/v1/users/me'],
      ['GET', '/v1/api-keys'],
      ['POST', '/v1/api-keys'],
      ['POST', '/v1/users/me/password'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect([400, 401]).toContain(res.statusCode);
      if (res.statusCode === 400) throw new Error(`${method} ${url} validated before authenticating`);
    }
  });
});

describe('account deletion', () => {
  it('deleting ends the session; sign-in says the account is being deleted; an admin restores it', async () => {
    const admin = (await t.database.db.select().from(users)).find((u) => u.roles.includes('admin'))!;
    const adminSignIn = await post('/v1/auth/signin', { email: admin.email, password: 'correct-horse-9' });
    const adminCookie = sessionCookie(adminSignIn);
    const u = await buildUser(t.app);
    const wrong = await t.app.inject({ method: 'DELETE', url: '/v1/users/me', headers: { cookie: u.cookie }, payload: { password: 'nope-nope-1' } });
    expect(wrong.statusCode).toBe(400);
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/users/me', headers: { cookie: u.cookie }, payload: { password: u.password } });
    expect(del.statusCode).toBe(200);
    expect((await get('/v1/users/me', { cookie: u.cookie })).statusCode).toBe(401);
    const signIn = await post('/v1/auth/signin', { email: u.email, password: u.password });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error).toMatchObject({ code: 'auth/account-deleted', message: 'This account is currently being deleted.' });
    const notAdmin = await post(`/v1/admin/users/${u.user.id}/restore`, undefined, (await buildUser(t.app)).cookie);
    expect(notAdmin.statusCode).toBe(403);
    const restore = await post(`/v1/admin/users/${u.user.id}/restore`, undefined, adminCookie);
    expect(restore.statusCode).toBe(200);
    expect(restore.json().data.dates.deleted).toBeNull();
    expect((await post('/v1/auth/signin', { email: u.email, password: u.password })).statusCode).toBe(200);
  });

  it('with no SMTP, mails go to the outbox that admins can read', async () => {
    const rows = await t.database.db.select().from(mailOutbox);
    expect(Array.isArray(rows)).toBe(true);
    const admin = (await t.database.db.select().from(users)).find((u) => u.roles.includes('admin'))!;
    const cookie = sessionCookie(await post('/v1/auth/signin', { email: admin.email, password: 'correct-horse-9' }));
    await post('/v1/auth/password/request', { email: admin.email });
    const res = await get('/v1/admin/outbox', { cookie });
    expect(res.json().data.mailEnabled).toBe(false);
    expect(res.json().data.mails[0]).toMatchObject({ to: admin.email, subject: 'Reset your Sightline password' });
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, authenticates both spellings, revokes', async () => {
    const u = await buildUser(t.app);
    const created = await post('/v1/api-keys', { name: 'laptop' }, u.cookie);
    expect(created.statusCode).toBe(201);
    const { key, legacyKey, id } = created.json().data;
    expect(key).toMatch(/^ul_[0-9a-f]{40}$/);
    expect(legacyKey).toMatch(/^ul[0-9a-f]{40}$/);
    expect(legacyKey).toHaveLength(42);
    expect(legacyKey.slice(2)).toBe(key.slice(3));

    const list = await get('/v1/api-keys', { cookie: u.cookie });
    expect(list.json().data).toHaveLength(1);
    expect(list.body).not.toContain(key.slice(3));
    expect(list.json().data[0].dates.lastUsed).toBeNull();

    for (const headers of [{ 'x-api-key': key }, { 'x-api-key': legacyKey }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const me = await get('/v1/users/me', headers);
      expect(me.statusCode).toBe(200);
      expect(me.json().data.id).toBe(u.user.id);
    }
    const auth = await t.app.inject({ method: 'POST', url: '/v1/auth', headers: { 'x-api-key': legacyKey } });
    expect(auth.json()).toMatchObject({ success: true });
    expect((await get('/v1/api-keys', { cookie: u.cookie })).json().data[0].dates.lastUsed).not.toBeNull();

    // keys cannot mint keys
    expect((await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: { 'x-api-key': key }, payload: {} })).statusCode).toBe(403);

    const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: { cookie: u.cookie } });
    expect(del.statusCode).toBe(200);
    const revoked = await get('/v1/users/me', { 'x-api-key': key });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error.code).toBe('auth/invalid-api-key');
    const authRevoked = await t.app.inject({ method: 'POST', url: '/v1/auth', headers: { 'x-api-key': key } });
    expect(authRevoked.statusCode).toBe(401);
    expect(authRevoked.json()).toEqual({ success: false, message: 'Invalid API key' });
  });

  it('another user cannot revoke my key', async () => {
    const a = await buildUser(t.app);
    const b = await buildUser(t.app);
    const { id } = (await post('/v1/api-keys', { name: 'a' }, a.cookie)).json().data;
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: { cookie: b.cookie } });
    expect(res.statusCode).toBe(404);
    expect((await get('/v1/api-keys', { cookie: a.cookie })).json().data).toHaveLength(1);
  });
});

describe('remote config and platform', () => {
  it('serves the flags with spec defaults; only admins change them', async () => {
    const res = await get('/v1/config');
    expect(res.json().data.flags).toEqual({ cloudTraining: false, teamsCollaboration: true, walletTopUp: false, dedicatedInference: false });
    expect(res.json().data).toMatchObject({ version: 'v0.1.85-rc.1', environment: 'staging' });
    const user = await buildUser(t.app);
    const denied = await t.app.inject({ method: 'PATCH', url: '/v1/config/flags', headers: { cookie: user.cookie }, payload: { walletTopUp: true } });
    expect(denied.statusCode).toBe(403);
    const admin = (await t.database.db.select().from(users)).find((u) => u.roles.includes('admin'))!;
    const cookie = sessionCookie(await post('/v1/auth/signin', { email: admin.email, password: 'correct-horse-9' }));
    const ok = await t.app.inject({ method: 'PATCH', url: '/v1/config/flags', headers: { cookie }, payload: { walletTopUp: true } });
    expect(ok.json().data.flags.walletTopUp).toBe(true);
    expect((await get('/v1/config')).json().data.flags.walletTopUp).toBe(true);
  });

  it('GET /alive answers without a database round trip; OpenAPI is served', async () => {
    expect((await get('/alive')).json().data.ok).toBe(true);
    const doc = await get('/v1/docs/json');
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toEqual(expect.arrayContaining(['/v1/auth/signup', '/v1/users/me', '/v1/api-keys']));
  });

  it('sends security headers and a request id; unknown API routes get a JSON 404', async () => {
    const res = await get('/v1/nope', { 'x-request-id': 'trace-123' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'error/not-found', requestId: 'trace-123' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  it('every response carries the same helmet headers, computed once at start: JSON, the SPA health route and hijacked tus replies', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self' ws: wss:;media-src 'self' blob:",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const u = await buildUser(t.app);
    const responses = [
      // tus answers through the raw response (reply.hijack): the headers are set there too. (First: its
      // store prepares its folder asynchronously, which must not outlive the test's data folder.)
      await t.app.inject({ method: 'OPTIONS', url: '/v1/uploads/tus', headers: { cookie: u.cookie, 'tus-resumable': '1.0.0' } }),
      await get('/alive'),
      await get('/v1/users/me', { cookie: u.cookie }),
      await get('/v1/nope'),
    ];
    for (const res of responses) expect(res.headers).toMatchObject(expected);
    // Without HTTPS in PUBLIC_URL there is no HSTS, and nothing says what runs the server.
    for (const res of responses) expect(res.headers).not.toHaveProperty('strict-transport-security');
    for (const res of responses) expect(res.headers).not.toHaveProperty('x-powered-by');
  });
});

describe('password hash cost (ADR 0002)', () => {
  it('is OWASP argon2id by default; the cheap test cost is refused in production; both kinds of hash sign in', async () => {
    expect(loadConfig({}).passwordHashCost).toBe('owasp');
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PASSWORD_HASH_COST: 'test' })).toThrow(/PASSWORD_HASH_COST/);
    expect(await hashPassword('abcdefg1', 'owasp')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // An account hashed at the production cost (as every real one is) signs in on a test-cost server.
    const u = await buildUser(t.app);
    const [row] = await t.database.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, u.email));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/); // the harness's PASSWORD_HASH_COST=test
    await t.database.db
      .update(users)
      .set({ passwordHash: await hashPassword('owasp-pass-1', 'owasp') })
      .where(eq(users.email, u.email));
    expect((await post('/v1/auth/signin', { email: u.email, password: 'owasp-pass-1' })).statusCode).toBe(200);
    expect((await post('/v1/auth/signin', { email: u.email, password: 'owasp-pass-2' })).statusCode).toBe(401);
  });
});
