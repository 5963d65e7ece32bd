import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestCluster, uniqueEmail, type TestApp } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

/**
 * Throttling (ADR 0024) and cross-site writes (ADR 0014): sign-in, reset mail, verification mail and API-key failures are
 * throttled per account (and client) and per IP in PostgreSQL (policy: ADR 0024) (429 + Retry-After, visible to admins), and
 * cookie-authenticated writes refuse cross-site forms.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
let ipSeq = 0;
/** Each test its own client address, so the per-IP counters of one test do not touch another. */
const freshIp = () => `10.16.0.${++ipSeq}`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app); // the first account is the admin
});
afterAll(async () => {
  await t.close();
});

const signIn = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email, password }, remoteAddress: ip });

describe('sign-in throttling', () => {
  it('slows one client guessing one account with progressive delays; the right password from another client still works (ADR 0024)', async () => {
    const u = await buildUser(t.app);
    const ip = freshIp();
    for (let i = 1; i <= 3; i++) expect((await signIn(u.email, `wrong-password-${i}`, ip)).statusCode, `attempt ${i}`).toBe(401);
    const fourth = await signIn(u.email, 'wrong-password-4', ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe('error/rate-limited');
    expect(fourth.json().error.message).toMatch(/Too many sign-in attempts/);
    const first = Number(fourth.headers['retry-after']);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(5);
    // The right password is refused from that client while it waits, not from another one.
    expect((await signIn(u.email, u.password, ip)).statusCode).toBe(429);
    expect((await signIn(u.email, u.password, freshIp())).statusCode).toBe(200);
    // The next strike waits twice as long, and so on.
    t.clock.advance(first * 1000 + 1000);
    for (let i = 0; i < 3; i++) expect((await signIn(u.email, 'nope-nope-2', ip)).statusCode).toBe(401);
    const second = await signIn(u.email, u.password, ip);
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(first);
    t.clock.advance(Number(second.headers['retry-after']) * 1000 + 1000);
    expect((await signIn(u.email, u.password, ip)).statusCode).toBe(200);
  });

  it('limits one address spraying many accounts, not other addresses', async () => {
    const ip = freshIp();
    let firstRefused = 0;
    for (let i = 1; i <= 60 && !firstRefused; i++) {
      const res = await signIn(uniqueEmail('spray'), 'whatever-1', ip);
      if (res.statusCode === 429) firstRefused = i;
      else expect(res.statusCode).toBe(401);
    }
    expect(firstRefused).toBe(51);
    const u = await buildUser(t.app);
    expect((await signIn(u.email, u.password, ip)).statusCode).toBe(429);
    expect((await signIn(u.email, u.password, freshIp())).statusCode).toBe(200);
  });

  it('counts failures in the database: a block made on one instance holds on another', async () => {
    const cluster = await createTestCluster(2);
    try {
      const [a, b] = cluster.nodes as [(typeof cluster.nodes)[0], (typeof cluster.nodes)[0]];
      const email = uniqueEmail('cluster');
      const signup = await fetch(`${a.url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'cluster-pass-1', username: `c${Date.now()}`, firstName: 'C' }),
      });
      expect(signup.status).toBe(201);
      const tryOn = (node: { url: string }, password: string) =>
        fetch(`${node.url}/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      for (let i = 0; i < 3; i++) expect((await tryOn(i % 2 ? a : b, 'wrong-pass-x')).status).toBe(401);
      const refused = await tryOn(b, 'cluster-pass-1');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await cluster.close();
    }
  });
});

describe('mail floods', () => {
  it('sends at most 5 reset mails per account in 15 minutes; 50 fast requests do not send 50 mails', async () => {
    const u = await buildUser(t.app);
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ method: 'POST', url: '/v1/auth/password/request', payload: { email: u.email }, remoteAddress: ip })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(45);
    expect(answers.find((r) => r.statusCode === 429)!.headers['retry-after']).toBeDefined();
    const outbox = await t.app.inject({ method: 'GET', url: '/v1/admin/outbox', headers: { cookie: admin.cookie } });
    const mails = (outbox.json().data.mails as Array<{ to: string; subject: string }>).filter((m) => m.to === u.email && /Reset/.test(m.subject));
    expect(mails).toHaveLength(5);
    // an unknown address is limited the same way (the limit says nothing about which accounts exist)
    const unknown = uniqueEmail('ghost');
    const ghost = [];
    for (let i = 0; i < 6; i++)
      ghost.push((await t.app.inject({ method: 'POST', url: '/v1/auth/password/request', payload: { email: unknown }, remoteAddress: freshIp() })).statusCode);
    expect(ghost).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('limits verification resends per account', async () => {
    const email = uniqueEmail('resend');
    const codes = [];
    for (let i = 0; i < 7; i++)
      codes.push((await t.app.inject({ method: 'POST', url: '/v1/auth/verify/resend', payload: { email }, remoteAddress: freshIp() })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});

describe('API-key failures', () => {
  it('answers 429 after 20 invalid keys from one address; valid keys from elsewhere keep working', async () => {
    const u = await buildUser(t.app);
    const key = (await buildApiKey(t.app, u.cookie, { name: 'ci' })).key;
    const ip = freshIp();
    const codes = [];
    for (let i = 0; i < 22; i++) {
      const bad = `ul_${i.toString(16).padStart(40, '0')}`;
      codes.push((await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { 'x-api-key': bad }, remoteAddress: ip })).statusCode);
    }
    expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
    expect(codes.slice(20)).toEqual([429, 429]);
    const ok = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { 'x-api-key': key }, remoteAddress: freshIp() });
    expect(ok.statusCode).toBe(200);
  });
});

describe('admins see repeated failures', () => {
  it('lists blocked accounts and addresses with counts; others may not read it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/admin/security/failures', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<{ kind: string; subject: string; total: number; strikes: number; lastIp: string | null }>;
    const signin = rows.filter((r) => r.kind === 'signin' && r.subject.startsWith('account:'));
    expect(signin.length).toBeGreaterThan(0);
    expect(signin.some((r) => r.total >= 3 && r.strikes >= 1 && r.lastIp?.startsWith('10.16.0.'))).toBe(true);
    expect(rows.some((r) => r.kind === 'apikey' && r.subject.startsWith('ip:') && r.strikes >= 1)).toBe(true);
    expect(rows.some((r) => r.kind === 'reset')).toBe(true);
    const other = await buildUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/v1/admin/security/failures', headers: { cookie: other.cookie } })).statusCode).toBe(403);
  });
});

describe('cross-site writes with the session cookie (defect 8)', () => {
  it('refuses a form-encoded cross-site POST /v1/projects and creates nothing', async () => {
    const u = await buildUser(t.app);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { cookie: u.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: 'name=forged',
    });
    expect(forged.statusCode).toBe(403);
    const onlyOrigin = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { cookie: u.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: 'name=forged2',
    });
    expect(onlyOrigin.statusCode).toBe(403);
    const nullOrigin = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { cookie: u.cookie, 'content-type': 'text/plain', origin: 'null' },
      payload: 'name=x',
    });
    expect(nullOrigin.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/v1/projects', headers: { cookie: u.cookie } });
    expect(JSON.stringify(list.json())).not.toMatch(/forged/);
  });

  it('lets the web app (JSON, or same-origin forms) and API-key clients through', async () => {
    const u = await buildUser(t.app);
    const json = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { cookie: u.cookie, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
      payload: { name: 'From the app' },
    });
    expect(json.statusCode).toBe(201);
    const sameOriginForm = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { cookie: u.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      payload: 'name=same-origin',
    });
    expect(sameOriginForm.statusCode).not.toBe(403);
    const key = (await buildApiKey(t.app, u.cookie, { name: 'k' })).key;
    const viaKey = await t.app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: { 'x-api-key': key, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: 'name=via-key',
    });
    expect(viaKey.statusCode).not.toBe(403);
  });
});
