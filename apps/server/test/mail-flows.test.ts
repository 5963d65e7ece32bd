import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, sessionCookie, uniqueEmail, type TestApp } from './support/harness.js';
import { linkIn, startSmtpSink } from './support/smtp-sink.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload?: object, cookie?: string) => t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const pathOf = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function signUp(email: string) {
  const res = await post('/v1/auth/signup', {
    email,
    password: 'first-pass-1',
    username: `m${Date.now()}${Math.floor(Math.random() * 1000)}`,
    firstName: 'Mia',
  });
  expect(res.statusCode).toBe(201);
  return res;
}

describe('with SMTP configured', () => {
  it('config says mail is on and verification is required', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(res.json().data.mail).toEqual({ enabled: true, verificationRequired: true });
  });

  it('sign-up sends a verification mail; sign-in is refused until the link is followed', async () => {
    const email = uniqueEmail('verify');
    const res = await signUp(email);
    expect(res.json().data.verificationRequired).toBe(true);
    expect(res.cookies.find((c) => c.name === 'sl_session')).toBeUndefined();

    const early = await post('/v1/auth/signin', { email, password: 'first-pass-1' });
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe('auth/email-not-verified');
    expect(early.json().error.message).toMatch(/new one/);

    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const link = linkIn(mail, /http:\/\/localhost:3000\/v1\/auth\/verify\?token=[\w%-]+/);
    const follow = await t.app.inject({ method: 'GET', url: pathOf(link) });
    expect(follow.statusCode).toBe(302);
    expect(follow.headers.location).toBe('/signin?verified=1');

    const signIn = await post('/v1/auth/signin', { email, password: 'first-pass-1' });
    expect(signIn.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { cookie: sessionCookie(signIn) } });
    expect(me.json().data.emailVerified).toBe(true);

    // the link is single-use
    const again = await t.app.inject({ method: 'GET', url: pathOf(link) });
    expect(again.headers.location).toBe('/signin?error=auth%2Finvalid-action-code');
  });

  it('resend sends a fresh verification mail; unknown emails get the same answer', async () => {
    const email = uniqueEmail('resend');
    await signUp(email);
    await smtp.waitFor((m) => m.to.includes(email));
    const before = smtp.mails.filter((m) => m.to.includes(email)).length;
    expect((await post('/v1/auth/verify/resend', { email })).statusCode).toBe(200);
    expect((await post('/v1/auth/verify/resend', { email: uniqueEmail('ghost') })).json()).toEqual({ data: { ok: true } });
    await smtp.waitFor(() => smtp.mails.filter((m) => m.to.includes(email)).length > before);
    const latest = smtp.mails.filter((m) => m.to.includes(email)).at(-1)!;
    const verify = await post('/v1/auth/verify', { token: tokenOf(linkIn(latest, /http:\/\/\S+token=[\w%-]+/)) });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data.user.emailVerified).toBe(true);
  });

  it('password reset: request → mail → reset; token is single-use and expires', async () => {
    const email = uniqueEmail('reset');
    await signUp(email);
    expect((await post('/v1/auth/password/request', { email })).statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(email) && /Reset/.test(m.raw));
    const link = linkIn(mail, /http:\/\/localhost:3000\/reset-password\?token=[\w%-]+/);
    const token = tokenOf(link);

    const weak = await post('/v1/auth/password/reset', { token, password: 'weak' });
    expect(weak.json().error.code).toBe('auth/weak-password');
    const reset = await post('/v1/auth/password/reset', { token, password: 'second-pass-2' });
    expect(reset.statusCode).toBe(200);
    const reused = await post('/v1/auth/password/reset', { token, password: 'third-pass-3' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('auth/invalid-action-code');
    // a reset link proves the address, so the account can sign in now
    expect((await post('/v1/auth/signin', { email, password: 'second-pass-2' })).statusCode).toBe(200);

    await post('/v1/auth/password/request', { email });
    const second = await smtp.waitFor((m) => m.to.includes(email) && m !== mail && /Reset/.test(m.raw));
    t.clock.advance(2 * 3600_000);
    try {
      const expired = await post('/v1/auth/password/reset', {
        token: tokenOf(linkIn(second, /http:\/\/\S+reset-password\?token=[\w%-]+/)),
        password: 'fourth-pass-4',
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.code).toBe('auth/expired-action-code');
    } finally {
      t.clock.advance(-2 * 3600_000);
    }
    const row = (await t.database.db.select().from(users).where(eq(users.email, email)))[0]!;
    expect(row.passwordHash).toBeTruthy();
  });

  it('a garbage token is refused with a clear code', async () => {
    const res = await post('/v1/auth/password/reset', { token: 'x'.repeat(40), password: 'valid-pass-9' });
    expect(res.json().error.code).toBe('auth/invalid-action-code');
  });
});
