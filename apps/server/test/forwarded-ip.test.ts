import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config.js';
import { createTestApp, uniqueEmail, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * The client's address behind a reverse proxy (ADR 0025, docs/deploy.md). TRUST_PROXY used to be
 * `true` (every address trusted): the first X-Forwarded-For entry, which the client chooses, was its
 * address, so a client varying it was never throttled. TRUST_PROXY now lists the proxies: the address
 * is the last X-Forwarded-For entry not added by one of them (nginx appends the peer's address).
 * inject() connects from 127.0.0.1, the proxy here.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const signIn = (email: string, password: string, forwardedFor: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email, password }, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

describe('client address behind the proxy', () => {
  // 57 sign-ins, each hashing a password: slow on a loaded machine.
  it('throttles the real client whatever X-Forwarded-For it sends, and not the other clients of the proxy', { timeout: 120_000 }, async () => {
    const victim = await buildUser(t.app);
    const statuses: number[] = [];
    // 55 wrong sign-ins, each on another account (so only the per-address rule of the throttle
    // policy can stop them) and each with a new client-chosen X-Forwarded-For; the proxy appended
    // the real address 203.0.113.7.
    for (let i = 0; i < 55; i++) {
      const res = await signIn(uniqueEmail('spray'), `wrong-${i}`, `10.9.${i}.1, 203.0.113.7`);
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The same real client is blocked, also with the right password of another account.
    expect((await signIn(victim.email, victim.password, '203.0.113.7')).statusCode).toBe(429);
    // Another client of the same proxy is not.
    expect((await signIn(victim.email, victim.password, '198.51.100.9')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from an address that is not a listed proxy', { timeout: 120_000 }, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) statuses.push((await signIn(uniqueEmail('direct'), 'wrong-pass', `198.51.100.${i}`, '192.0.2.44')).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses TRUST_PROXY=true and bad entries at start, naming them', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1, nginx.local' })).toThrow(/nginx\.local/);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, loopback' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback']);
    expect(loadConfig({}).trustProxy).toEqual([]);
  });
});
