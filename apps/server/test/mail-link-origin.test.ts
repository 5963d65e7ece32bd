import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, sessionCookie, uniqueEmail, type TestApp } from './support/harness.js';
import { linkIn, startSmtpSink } from './support/smtp-sink.js';

/** ADR 0018: with PUBLIC_URL unset, links in mails use the origin the browser used. */
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let direct: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  smtp = await startSmtpSink();
  // PUBLIC_URL unset (the harness sets one by default)
  direct = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: undefined as unknown as string });
  proxied = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: undefined as unknown as string, TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
  await smtp.close();
});

async function signUp(t: TestApp, host: string, headers: Record<string, string> = {}) {
  const email = uniqueEmail('origin');
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    headers: { host, ...headers },
    payload: { email, password: 'first-pass-1', username: `o${Date.now()}${Math.floor(Math.random() * 1e6)}`, firstName: 'Ola' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return email;
}
async function resetLink(t: TestApp, email: string, host: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/auth/password/request', headers: { host, ...headers }, payload: { email } });
  expect(res.statusCode, res.body).toBe(200);
  return linkIn(await smtp.waitFor((m) => m.to.includes(email) && /reset-password/.test(m.text)), /http\S+reset-password\?token=[\w%-]+/);
}

describe('links in mails without PUBLIC_URL', () => {
  it('verification and reset links use the host the browser used (127.0.0.1 with its port)', async () => {
    const email = await signUp(direct, '127.0.0.1:4321');
    const verify = linkIn(await smtp.waitFor((m) => m.to.includes(email) && /verify/.test(m.text)), /http\S+\/v1\/auth\/verify\?token=[\w%-]+/);
    expect(verify.startsWith('http://127.0.0.1:4321/v1/auth/verify?token=')).toBe(true);
    expect((await resetLink(direct, email, '127.0.0.1:4321')).startsWith('http://127.0.0.1:4321/reset-password?token=')).toBe(true);
  });

  it('a Host that does not name this machine is not trusted: the link falls back to the default origin', async () => {
    const email = await signUp(direct, 'localhost:3000');
    const link = await resetLink(direct, email, 'evil.example.com');
    expect(new URL(link).hostname).not.toBe('evil.example.com');
    expect(new URL(link).hostname).toBe('localhost');
  });

  it('behind TRUST_PROXY the forwarded scheme and host are used', async () => {
    const email = await signUp(proxied, '127.0.0.1:9999');
    const link = await resetLink(proxied, email, '127.0.0.1:9999', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hub.example.org' });
    expect(link.startsWith('https://hub.example.org/reset-password?token=')).toBe(true);
  });
});

describe('GET /v1/auth/mail-links (the admin warning)', () => {
  async function admin(t: TestApp, host: string) {
    const email = await signUp(t, host);
    await t.database.db
      .update(users)
      .set({ roles: ['admin'], emailVerifiedAt: new Date() })
      .where(eq(users.email, email));
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', headers: { host }, payload: { email, password: 'first-pass-1' } });
    expect(res.statusCode, res.body).toBe(200);
    return sessionCookie(res);
  }

  it('says where links point and warns when only this machine can open them; admins only', async () => {
    const cookie = await admin(direct, '127.0.0.1:4321');
    const loop = await direct.app.inject({ method: 'GET', url: '/v1/auth/mail-links', headers: { host: '127.0.0.1:4321', cookie } });
    expect(loop.json().data).toEqual({ base: 'http://127.0.0.1:4321', source: 'request', loopback: true });
    const lan = await proxied.app.inject({
      method: 'GET',
      url: '/v1/auth/mail-links',
      headers: { host: '127.0.0.1:9', 'x-forwarded-host': 'hub.example.org', 'x-forwarded-proto': 'https', cookie: await admin(proxied, '127.0.0.1:9') },
    });
    expect(lan.json().data).toEqual({ base: 'https://hub.example.org', source: 'request', loopback: false });
    const someone = await signUp(direct, 'localhost:3000');
    await direct.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.email, someone));
    const signIn = await direct.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: someone, password: 'first-pass-1' } });
    expect((await direct.app.inject({ method: 'GET', url: '/v1/auth/mail-links', headers: { cookie: sessionCookie(signIn) } })).statusCode).toBe(403);
  });
});
