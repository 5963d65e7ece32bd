import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Every secret check is throttled (ADR 0024): the current password asked again, reset and
 * verification links, agent tokens; and sign-in throttling that others cannot turn against the
 * real user: a browser that signed in to the account before is counted on its own.
 */
let t: TestApp;
let ipSeq = 0;
const freshIp = () => `10.24.0.${++ipSeq}`;

beforeAll(async () => {
  t = await createTestApp();
  await buildUser(t.app); // the first account is the admin
});
afterAll(async () => {
  await t.close();
});

const origin = 'http://localhost:3000';

describe('throttles on every secret check', () => {
  it('POST /v1/users/me/password: 60 wrong current passwords are not 60 guesses; the block holds for the right one too', async () => {
    const u = await buildUser(t.app);
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/users/me/password',
        headers: { cookie: u.cookie, origin },
        payload: { currentPassword: `guess-number-${i}`, newPassword: 'another-pass-9' },
        remoteAddress: ip,
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(codes.filter((c) => c === 400)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(55);
    const right = await t.app.inject({
      method: 'POST',
      url: '/v1/users/me/password',
      headers: { cookie: u.cookie, origin },
      payload: { currentPassword: u.password, newPassword: 'another-pass-9' },
      remoteAddress: ip,
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().error.message).toMatch(/Too many wrong passwords/);
  });

  it('reset and verification tokens: 20 wrong ones from an address, then 429', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 12; i++)
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/auth/password/reset',
            payload: { token: `not-a-token-${i}`, password: 'new-password-1' },
            remoteAddress: ip,
          })
        ).statusCode,
      );
    for (let i = 0; i < 12; i++)
      codes.push((await t.app.inject({ method: 'POST', url: '/v1/auth/verify', payload: { token: `not-a-token-${i}` }, remoteAddress: ip })).statusCode);
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(codes.slice(20)).toEqual([429, 429, 429, 429]);
  });

  it('agent tokens: 20 wrong ones from an address, then 429 with Retry-After', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    let last = null as null | Awaited<ReturnType<typeof t.app.inject>>;
    for (let i = 0; i < 23; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/v1/agents/claim?waitMs=0',
        headers: { 'x-agent-token': `sla_${'0'.repeat(39)}${i % 10}` },
        remoteAddress: ip,
      });
      codes.push(last.statusCode);
    }
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(codes.slice(20)).toEqual([429, 429, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sign-in throttling does not lock the real user out', () => {
  it('guesses from 40 addresses block the account for new devices; the browser that signed in before still signs in', async () => {
    const u = await buildUser(t.app);
    // The user's own browser signed in before: it holds the device cookie.
    const first = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: u.password }, remoteAddress: '10.24.1.1' });
    expect(first.statusCode).toBe(200);
    sessionCookie(first);
    const device = first.cookies.find((c) => c.name === 'sl_device');
    expect(device?.httpOnly).toBe(true);
    const attackers = Array.from({ length: 40 }, (_, i) => `10.24.2.${i + 1}`);
    const answers: number[] = [];
    for (const ip of attackers)
      answers.push(
        (await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: 'not-the-password' }, remoteAddress: ip }))
          .statusCode,
      );
    expect(answers.filter((c) => c === 429).length).toBeGreaterThan(0); // the account-wide limit took over
    // A new device is refused for now, even with the right password...
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: u.password }, remoteAddress: '10.24.3.1' }))
        .statusCode,
    ).toBe(429);
    // ...the known one is not, even from one of the attackers' addresses.
    for (const ip of ['10.24.1.1', attackers[0]!]) {
      const mine = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/signin',
        payload: { email: u.email, password: u.password },
        cookies: { sl_device: device!.value },
        remoteAddress: ip,
      });
      expect(mine.statusCode, mine.body).toBe(200);
    }
    // The cookie is bound to its account: it does not help with another one.
    const other = await buildUser(t.app);
    for (let i = 0; i < 3; i++)
      await t.app.inject({
        method: 'POST',
        url: '/v1/auth/signin',
        payload: { email: other.email, password: 'wrong-one-x' },
        cookies: { sl_device: device!.value },
        remoteAddress: '10.24.4.1',
      });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/auth/signin',
          payload: { email: other.email, password: 'wrong-one-x' },
          cookies: { sl_device: device!.value },
          remoteAddress: '10.24.4.1',
        })
      ).statusCode,
    ).toBe(429);
  });

  it('a device guessing is slowed too (its own progressive delays)', async () => {
    const u = await buildUser(t.app);
    const first = await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: u.email, password: u.password }, remoteAddress: '10.24.5.1' });
    const device = first.cookies.find((c) => c.name === 'sl_device')!;
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/auth/signin',
            payload: { email: u.email, password: 'wrong-again-1' },
            cookies: { sl_device: device.value },
            remoteAddress: '10.24.5.1',
          })
        ).statusCode,
      );
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});
