import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Server-side heartbeats on realtime sockets (ADR 0025): the server pings every interval and closes a
 * socket that answered nothing since the previous ping, so a client gone without closing TCP (its
 * network cut, a laptop lid) loses its socket and its presence. Before, such a socket stayed open (and
 * the user online) until the kernel gave up. The interval is 0.3 s here, 25 s in production.
 */
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ REALTIME_HEARTBEAT_SECONDS: '0.3' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/v1/realtime`;
});
afterAll(async () => {
  await t.close();
});

const open = async (cookie: string, autoPong: boolean) => {
  const ws = new WebSocket(url, { headers: { cookie }, autoPong });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, closed };
};
const online = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/v1/users/me/presence', headers: { cookie } })).json().data.online as boolean;
const waitFor = async (check: () => Promise<boolean>, ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

it('closes a socket that stops answering pings and marks its user offline; a live one stays', async () => {
  const silent = await buildUser(t.app);
  const live = await buildUser(t.app);
  const dead = await open(silent.cookie, false); // never answers the server's pings: a vanished client
  const alive = await open(live.cookie, true);
  expect(await waitFor(() => online(silent.cookie), 2000)).toBe(true);
  const started = Date.now();
  const code = await Promise.race([dead.closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
  expect(code).toBe(1006); // terminated by the server, no close handshake
  expect(Date.now() - started).toBeLessThan(2000); // within two intervals (and some load)
  expect(await waitFor(async () => !(await online(silent.cookie)), 2000)).toBe(true);
  // The answering client is still there after many intervals.
  await new Promise((r) => setTimeout(r, 1500));
  expect(alive.ws.readyState).toBe(WebSocket.OPEN);
  expect(await online(live.cookie)).toBe(true);
  alive.ws.close();
});

/**
 * A server shutting down with sockets open: the presence of each closing socket is written before
 * close() returns (its database closes right after, bootstrap.ts), never against a closed pool.
 */
it('a shutdown waits for its open sockets to close and records their presence first', async () => {
  const s = await createTestApp();
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const u = await buildUser(s.app);
  const ws = new WebSocket(`ws://127.0.0.1:${(s.app.server.address() as { port: number }).port}/v1/realtime`, { headers: { cookie: u.cookie } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const connections = async () =>
    (await s.database.query<{ connections: number }>('select connections from presence where user_id = $1', [u.user.id]))[0]?.connections;
  expect(await waitFor(async () => (await connections()) === 1, 5_000)).toBe(true);
  await s.app.close();
  expect(await connections()).toBe(0);
  await s.close();
});
