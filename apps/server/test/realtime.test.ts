import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '@sightline/contracts';
import { createTestCluster, type ClusterNode, type TestCluster } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Realtime across instances: two servers on one database, each listening on loopback. A change made
 * through instance A must reach a socket held by instance B, which only works if the event travels
 * through the database (NOTIFY) rather than an in-process emitter.
 */

let cluster: TestCluster;
let a: ClusterNode;
let b: ClusterNode;
beforeAll(async () => {
  cluster = await createTestCluster(2);
  [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
});
afterAll(async () => {
  await cluster?.close();
});

/** A WebSocket client that buffers every server message so tests can await the one they expect. */
class Client {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      const msg = JSON.parse(raw.toString('utf8')) as ServerMessage;
      this.received.push(msg);
      const i = this.waiters.findIndex((w) => w.match(msg));
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(msg);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(node: ClusterNode, cookie?: string, query = ''): Promise<Client> {
    const ws = new WebSocket(`${node.url.replace(/^http/, 'ws')}/v1/realtime${query}`, { headers: cookie ? { cookie } : {} });
    const client = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** The first message (already received or still to come) that matches. */
  next(match: (m: ServerMessage) => boolean, timeoutMs = 5000): Promise<ServerMessage> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`));
      }, timeoutMs).unref();
    });
  }

  send(msg: object) {
    this.ws.send(JSON.stringify(msg));
  }

  async close() {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    await this.closed;
  }
}

const isType =
  <T extends ServerMessage['type']>(type: T) =>
  (m: ServerMessage): m is Extract<ServerMessage, { type: T }> =>
    m.type === type;

async function presenceOf(node: ClusterNode, cookie: string) {
  const res = await node.app.inject({ method: 'GET', url: '/v1/users/me/presence', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { connected: string | null; platform: string; formatted: string | null; online: boolean };
}

describe('realtime across two instances', () => {
  it('the two instances are separate servers on separate ports', () => {
    expect(a.url).not.toBe(b.url);
    expect(a.app).not.toBe(b.app);
  });

  it('a profile update made on A reaches a socket held by B, and only its owner', async () => {
    const u = await buildUser(a.app);
    const other = await buildUser(a.app);
    const mine = await Client.connect(b, u.cookie);
    const theirs = await Client.connect(b, other.cookie);
    try {
      expect(await mine.next(isType('hello'))).toEqual({ type: 'hello', uid: u.user.id });
      await theirs.next(isType('hello'));

      const patch = await a.app.inject({ method: 'PATCH', url: '/v1/users/me', headers: { cookie: u.cookie }, payload: { firstName: 'Realtime' } });
      expect(patch.statusCode).toBe(200);

      const event = await mine.next((m) => m.type === 'event' && m.event === 'user.updated');
      expect(event).toMatchObject({ type: 'event', topic: `user:${u.user.id}`, event: 'user.updated', data: { id: u.user.id, firstName: 'Realtime' } });

      // B fans one notification out to all its sockets at once; a pong after that proves the other
      // user's socket has had its chance to (wrongly) receive the event.
      theirs.send({ type: 'ping' });
      await theirs.next(isType('pong'));
      expect(theirs.received.filter(isType('event'))).toEqual([]);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('events also reach sockets on the instance that made the change', async () => {
    const u = await buildUser(b.app);
    const onA = await Client.connect(a, u.cookie);
    const onB = await Client.connect(b, u.cookie);
    try {
      await onA.next(isType('hello'));
      await onB.next(isType('hello'));
      await b.app.inject({ method: 'PATCH', url: '/v1/users/me', headers: { cookie: u.cookie }, payload: { lastName: 'Everywhere' } });
      for (const c of [onA, onB]) {
        expect(await c.next((m) => m.type === 'event' && m.event === 'user.updated')).toMatchObject({ data: { lastName: 'Everywhere' } });
      }
    } finally {
      await onA.close();
      await onB.close();
    }
  });
});

describe('socket protocol', () => {
  it('an unauthenticated socket is told why and closed with 4401', async () => {
    for (const cookie of [undefined, 'sl_session=not-a-real-session']) {
      const c = await Client.connect(b, cookie);
      const { code } = await c.closed;
      expect(code).toBe(4401);
      expect(c.received).toEqual([expect.objectContaining({ type: 'error', code: 'error/unauthorized' })]);
    }
  });

  it('answers ping with pong', async () => {
    const u = await buildUser(a.app);
    const c = await Client.connect(b, u.cookie);
    try {
      await c.next(isType('hello'));
      c.send({ type: 'ping' });
      expect(await c.next(isType('pong'))).toEqual({ type: 'pong' });
    } finally {
      await c.close();
    }
  });

  it("refuses a subscription to someone else's user topic, and delivers nothing from it", async () => {
    const u = await buildUser(a.app);
    const victim = await buildUser(a.app);
    const c = await Client.connect(b, u.cookie);
    try {
      await c.next(isType('hello'));
      c.send({ type: 'subscribe', topic: `user:${victim.user.id}` });
      expect(await c.next(isType('error'))).toMatchObject({ type: 'error', topic: `user:${victim.user.id}`, code: 'error/forbidden' });

      await a.app.inject({ method: 'PATCH', url: '/v1/users/me', headers: { cookie: victim.cookie }, payload: { firstName: 'Secret' } });
      // Own change afterwards: once it arrives, the victim's earlier event would have too.
      await a.app.inject({ method: 'PATCH', url: '/v1/users/me', headers: { cookie: u.cookie }, payload: { firstName: 'Marker' } });
      await c.next((m) => m.type === 'event' && m.topic === `user:${u.user.id}`);
      expect(c.received.filter((m) => m.type === 'event' && m.topic === `user:${victim.user.id}`)).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('allows subscribing to its own topics', async () => {
    const u = await buildUser(a.app);
    const c = await Client.connect(b, u.cookie);
    try {
      await c.next(isType('hello'));
      c.send({ type: 'subscribe', topic: `presence:${u.user.id}` });
      expect(await c.next(isType('subscribed'))).toEqual({ type: 'subscribed', topic: `presence:${u.user.id}` });
    } finally {
      await c.close();
    }
  });

  it('model, dataset and project topics follow the read rules; a model update arrives on its topic', async () => {
    const owner = await buildUser(a.app);
    const other = await buildUser(a.app);
    const mk = async (url: string, payload: object) =>
      (await a.app.inject({ method: 'POST', url, headers: { cookie: owner.cookie }, payload })).json().data.id as string;
    const privModel = await mk('/v1/models', { meta: { name: 'secret' } });
    const pubModel = await mk('/v1/models', { meta: { name: 'open', privacy: 'public' } });
    const privDataset = await mk('/v1/datasets', { meta: { name: 'd' }, task: 'detect' });
    const privProject = await mk('/v1/projects', { meta: { name: 'p' } });
    const mine = await Client.connect(b, owner.cookie);
    const theirs = await Client.connect(b, other.cookie);
    try {
      await mine.next(isType('hello'));
      await theirs.next(isType('hello'));
      for (const topic of [`model:${privModel}`, `dataset:${privDataset}`, `project:${privProject}`]) {
        mine.send({ type: 'subscribe', topic });
        expect(await mine.next((m) => m.type === 'subscribed' && m.topic === topic)).toBeTruthy();
        theirs.send({ type: 'subscribe', topic });
        expect(await theirs.next((m) => m.type === 'error' && m.topic === topic)).toMatchObject({ code: 'error/forbidden' });
      }
      theirs.send({ type: 'subscribe', topic: `model:${pubModel}` });
      await theirs.next((m) => m.type === 'subscribed' && m.topic === `model:${pubModel}`);
      await a.app.inject({ method: 'PATCH', url: `/v1/models/${pubModel}`, headers: { cookie: owner.cookie }, payload: { meta: { name: 'renamed' } } });
      expect(await theirs.next((m) => m.type === 'event' && m.topic === `model:${pubModel}`)).toMatchObject({ event: 'model.updated' });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('rejects malformed messages without dropping the connection', async () => {
    const u = await buildUser(a.app);
    const c = await Client.connect(b, u.cookie);
    try {
      await c.next(isType('hello'));
      c.ws.send('not json');
      expect(await c.next(isType('error'))).toMatchObject({ code: 'error/validation' });
      c.send({ type: 'ping' });
      await c.next(isType('pong'));
    } finally {
      await c.close();
    }
  });
});

describe('presence', () => {
  it('is online with a connected time and platform web while a socket is open, offline after', async () => {
    const u = await buildUser(a.app);
    const before = await presenceOf(a, u.cookie);
    expect(before).toMatchObject({ online: false, connected: null, platform: 'web' });

    const since = Date.now();
    const c = await Client.connect(b, u.cookie);
    await c.next(isType('hello'));
    // Presence is recorded just after the hello; read it through the OTHER instance (shared state).
    const online = await vi.waitFor(
      async () => {
        const p = await presenceOf(a, u.cookie);
        if (!p.online) throw new Error('not online yet');
        return p;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(online.platform).toBe('web');
    expect(online.connected).not.toBeNull();
    const connectedAt = Date.parse(online.connected!);
    expect(connectedAt).toBeGreaterThanOrEqual(since - 1000);
    expect(connectedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(online.formatted).toBe(new Date(connectedAt).toUTCString());

    await c.close();
    const offline = await vi.waitFor(
      async () => {
        const p = await presenceOf(a, u.cookie);
        if (p.online) throw new Error('still online');
        return p;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(offline.platform).toBe('web');
  });

  it('stays online while a second tab is still connected', async () => {
    const u = await buildUser(a.app);
    const tab1 = await Client.connect(a, u.cookie);
    const tab2 = await Client.connect(b, u.cookie);
    await tab1.next(isType('hello'));
    await tab2.next(isType('hello'));
    await vi.waitFor(
      async () =>
        expect(
          (await cluster.database.query<{ connections: number }>('SELECT connections FROM presence WHERE user_id = $1', [u.user.id]))[0]?.connections,
        ).toBe(2),
      {
        timeout: 5000,
        interval: 50,
      },
    );
    await tab1.close();
    await vi.waitFor(
      async () =>
        expect(
          (await cluster.database.query<{ connections: number }>('SELECT connections FROM presence WHERE user_id = $1', [u.user.id]))[0]?.connections,
        ).toBe(1),
      {
        timeout: 5000,
        interval: 50,
      },
    );
    expect((await presenceOf(b, u.cookie)).online).toBe(true);
    await tab2.close();
    await vi.waitFor(async () => expect((await presenceOf(b, u.cookie)).online).toBe(false), { timeout: 5000, interval: 50 });
  });

  it('counts signed-out visitors under the guests presence (spec §7 presence/guests), across instances', async () => {
    const admin = await buildUser(a.app);
    await cluster.database.query(`UPDATE users SET roles = ARRAY['admin'] WHERE id = $1`, [admin.user.id]);
    const guests = async () => {
      const res = await a.app.inject({ method: 'GET', url: '/v1/presence/guests', headers: { cookie: admin.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { online: number; connected: string | null; platform: string };
    };
    const before = (await guests()).online;
    const guest = await Client.connect(b, undefined, '?guest=1');
    expect(await guest.next(isType('hello'))).toEqual({ type: 'hello', uid: null });
    await vi.waitFor(async () => expect((await guests()).online).toBe(before + 1), { timeout: 5000, interval: 50 });
    expect((await guests()).platform).toBe('web');
    // A guest hears the public config topic only, and its pings are answered.
    guest.send({ type: 'subscribe', topic: 'config' });
    expect(await guest.next(isType('subscribed'))).toEqual({ type: 'subscribed', topic: 'config' });
    guest.send({ type: 'subscribe', topic: `user:${admin.user.id}` });
    expect(await guest.next((m) => m.type === 'error' && m.topic === `user:${admin.user.id}`)).toMatchObject({ code: 'error/unauthorized' });
    guest.send({ type: 'ping' });
    await guest.next(isType('pong'));
    // Only admins read it.
    expect((await a.app.inject({ method: 'GET', url: '/v1/presence/guests', headers: {} })).statusCode).toBe(401);
    await guest.close();
    await vi.waitFor(async () => expect((await guests()).online).toBe(before), { timeout: 5000, interval: 50 });
  });

  it('still refuses a signed-out socket that does not ask to be a guest', async () => {
    const c = await Client.connect(a);
    expect((await c.closed).code).toBe(4401);
  });
});

/**
 * Live updates whose cost does not grow with the audience (ADR 0042): only events that can change
 * access re-check subscriptions, a topic's subscribers are re-checked in one authorizer call, and a
 * fan-out to more sockets than one send batch still delivers every event once, in order.
 */
describe('delivery to many subscribers', () => {
  const consoleEvent = (model: string, chunkId: number) => a.app.ctx.bus.publish(`model:${model}`, 'model.console', { id: model, projectId: null, chunkId });
  const isConsole = (model: string, chunkId: number) => (m: ServerMessage) =>
    m.type === 'event' && m.topic === `model:${model}` && m.event === 'model.console' && (m.data as { chunkId: number } | null)?.chunkId === chunkId;

  it('presence changes re-check nobody; a model turned private ends its watchers in one re-check for the topic', async () => {
    const owner = await buildUser(a.app);
    const model = (
      await a.app.inject({ method: 'POST', url: '/v1/models', headers: { cookie: owner.cookie }, payload: { meta: { name: 'watched', privacy: 'public' } } })
    ).json().data.id as string;
    const watchers = await Promise.all([0, 1, 2].map(() => buildUser(a.app)));
    const passer = await buildUser(a.app);
    const ownerSocket = await Client.connect(b, owner.cookie);
    const sockets = await Promise.all(watchers.map((w) => Client.connect(b, w.cookie)));
    const passerHome = await Client.connect(b, passer.cookie);
    const many = vi.spyOn(b.app.topics, 'allowedMany');
    try {
      for (const c of [ownerSocket, ...sockets]) {
        await c.next(isType('hello'));
        c.send({ type: 'subscribe', topic: `model:${model}` });
        await c.next((m) => m.type === 'subscribed' && m.topic === `model:${model}`);
      }
      await passerHome.next(isType('hello'));
      passerHome.send({ type: 'subscribe', topic: `presence:${passer.user.id}` });
      await passerHome.next((m) => m.type === 'subscribed');
      // A tab opens and closes elsewhere: presence.updated goes out, and changes no one's access.
      const tab = await Client.connect(a, passer.cookie);
      await tab.next(isType('hello'));
      await tab.close();
      await vi.waitFor(() => expect(passerHome.received.filter((m) => m.type === 'event' && m.event === 'presence.updated').length).toBeGreaterThanOrEqual(2), {
        timeout: 5000,
      });
      await consoleEvent(model, 1);
      for (const c of [ownerSocket, ...sockets]) await c.next(isConsole(model, 1));
      expect(many).not.toHaveBeenCalled();

      // The owner makes it private: the three watchers are re-checked together, told, and hear nothing more.
      expect(
        (await a.app.inject({ method: 'POST', url: `/v1/models/${model}/share`, headers: { cookie: owner.cookie }, payload: { privacy: 'private' } }))
          .statusCode,
      ).toBe(200);
      for (const c of sockets) {
        expect(await c.next((m) => m.type === 'error' && m.topic === `model:${model}`)).toMatchObject({
          code: 'error/forbidden',
          message: 'Access to this topic ended',
        });
      }
      expect(many).toHaveBeenCalledTimes(1);
      expect(many.mock.calls[0]![1]).toBe(`model:${model}`);
      expect([...many.mock.calls[0]![0]].sort()).toEqual([owner.user.id, ...watchers.map((w) => w.user.id)].sort());
      await consoleEvent(model, 2);
      await ownerSocket.next(isConsole(model, 2));
      for (const c of sockets) {
        c.send({ type: 'ping' });
        await c.next(isType('pong'));
        expect(c.received.filter(isConsole(model, 2))).toEqual([]);
      }
    } finally {
      many.mockRestore();
      for (const c of [ownerSocket, ...sockets, passerHome]) await c.close();
    }
  });

  it('an audience larger than one send batch gets every event once and in order', async () => {
    const owner = await buildUser(a.app);
    const model = (
      await a.app.inject({ method: 'POST', url: '/v1/models', headers: { cookie: owner.cookie }, payload: { meta: { name: 'crowd', privacy: 'public' } } })
    ).json().data.id as string;
    const viewer = await buildUser(a.app);
    const crowd: Client[] = [];
    try {
      for (let i = 0; i < 150; i += 25) {
        const batch = await Promise.all(Array.from({ length: 25 }, () => Client.connect(b, viewer.cookie)));
        await Promise.all(
          batch.map(async (c) => {
            await c.next(isType('hello'));
            c.send({ type: 'subscribe', topic: `model:${model}` });
            await c.next((m) => m.type === 'subscribed', 15_000);
          }),
        );
        crowd.push(...batch);
      }
      for (const chunk of [1, 2, 3]) await consoleEvent(model, chunk);
      await Promise.all(crowd.map((c) => c.next(isConsole(model, 3), 15_000)));
      for (const c of crowd) {
        const got = c.received.filter((m) => m.type === 'event' && m.topic === `model:${model}`).map((m) => (m as { data: { chunkId: number } }).data.chunkId);
        expect(got).toEqual([1, 2, 3]);
      }
    } finally {
      await Promise.all(crowd.map((c) => c.close()));
    }
  }, 60_000);
});
