import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { ErrorCode, clientMessageSchema, parseTopic, topics, type ItemTopicKind, type RealtimeEventName, type ServerMessage } from '@sightline/contracts';
import type { DomainEvent } from './event-bus.js';

/** May this user listen to the item `id`'s topic (its id parsed by the contract's parseTopic). */
export type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;
/** Of these users, those who may listen to the item `id`'s topic: one look at the item for all of them (ADR 0042). */
export type TopicBatchAuthorizer = (userIds: string[], id: string) => Promise<Set<string>>;

/** A user's own topics (and the public config topic): always allowed, never re-checked. */
function isOwnTopic(userId: string, topic: string) {
  const t = parseTopic(topic);
  return t !== null && (t.kind === 'config' || ((t.kind === 'user' || t.kind === 'presence') && t.userId === userId));
}

/**
 * Who may subscribe to what. Modules add authorizers for their item topics (model:<id>,
 * dataset:<id>, …) from their register(); a user's own topics are always allowed. An authorizer may
 * come with a batch form (`many`) that answers for all the subscribers of a topic at once; without
 * one, the re-check asks once per distinct user.
 */
export class TopicRegistry {
  private authorizers = new Map<ItemTopicKind, { one: TopicAuthorizer; many?: TopicBatchAuthorizer }>();
  register(kind: ItemTopicKind, fn: TopicAuthorizer | { one: TopicAuthorizer; many: TopicBatchAuthorizer }) {
    this.authorizers.set(kind, typeof fn === 'function' ? { one: fn } : fn);
  }
  async allowed(userId: string, topic: string): Promise<boolean> {
    if (isOwnTopic(userId, topic)) return true;
    const t = parseTopic(topic);
    if (!t || t.kind === 'user' || t.kind === 'presence' || t.kind === 'config') return false;
    const fn = this.authorizers.get(t.kind);
    return fn ? fn.one(userId, t.id) : false;
  }
  /** Of these users, those still allowed on the topic (the re-check after an access change). */
  async allowedMany(userIds: string[], topic: string): Promise<Set<string>> {
    const users = [...new Set(userIds)];
    const t = parseTopic(topic);
    if (!t || t.kind === 'user' || t.kind === 'presence' || t.kind === 'config') return new Set(users.filter((u) => isOwnTopic(u, topic)));
    const fn = this.authorizers.get(t.kind);
    if (!fn) return new Set();
    if (fn.many) return fn.many(users, t.id);
    const answers = await Promise.all(users.map((u) => fn.one(u, t.id).catch(() => false)));
    return new Set(users.filter((_, i) => answers[i]));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    topics: TopicRegistry;
  }
}

/** What else happens when a user's socket opens or closes (presence): given when the app is built. */
export interface RealtimeOptions {
  onConnect?(userId: string): Promise<void>;
  onDisconnect?(userId: string): Promise<void>;
  /** A signed-out socket (`?guest=1`, the spec's presence/guests) opened: answers its presence id. */
  onGuestConnect?(): Promise<string>;
  onGuestPing?(presenceId: string): Promise<void>;
  onGuestDisconnect?(presenceId: string): Promise<void>;
}

/**
 * Events after which a subscription may no longer be allowed: an item's privacy, team, place or
 * deletion changed, or a team's membership did. Named one by one (ADR 0042): presence, progress,
 * metrics, console, evaluations, endpoints, notifications and profile changes change no access, and
 * a hot topic's subscribers are re-checked only after one of these.
 */
export const ACCESS_EVENTS: ReadonlySet<RealtimeEventName> = new Set<RealtimeEventName>([
  'user.deleted',
  'project.updated',
  'project.deleted',
  'project.restored',
  'dataset.updated',
  'dataset.deleted',
  'dataset.restored',
  'model.updated',
  'model.deleted',
  'model.restored',
  'team.updated',
  'team.deleted',
  'team.joined',
  'team.left',
]);
export const accessMayChange = (event: string) => ACCESS_EVENTS.has(event as RealtimeEventName);

/** Sockets sent to per turn of the event loop: a fan-out to thousands yields between batches, so the request that caused it is not held up. */
const SEND_BATCH = 64;

interface SocketState {
  userId: string;
  /** topic → the access epoch at which the subscription was last authorized */
  topics: Map<string, number>;
  alive: boolean;
}

export async function realtimeRoutes(app: FastifyInstance, opts: RealtimeOptions) {
  const ctx = app.ctx;
  const sockets = new Map<WebSocket, SocketState>();
  /** topic → its subscribed sockets: an event looks at its own audience only. */
  const byTopic = new Map<string, Set<WebSocket>>();
  // Bumped by every event that may change access (on every instance: events arrive through NOTIFY).
  // A subscription authorized before the current epoch is authorized again before its next event,
  // and dropped when no longer allowed: a subscriber of an item that turned private stops receiving
  // its events, including the event of the change itself.
  let accessEpoch = 0;
  /** topic → the delivery of its events still under way (a re-check or a batched fan-out): later events of the topic wait for it, other topics do not. */
  const pending = new Map<string, Promise<void>>();

  function subscribeSocket(ws: WebSocket, s: SocketState, topic: string, epoch: number) {
    s.topics.set(topic, epoch);
    let set = byTopic.get(topic);
    if (!set) byTopic.set(topic, (set = new Set()));
    set.add(ws);
  }
  function unsubscribeSocket(ws: WebSocket, s: SocketState, topic: string) {
    s.topics.delete(topic);
    const set = byTopic.get(topic);
    if (set?.delete(ws) && set.size === 0) byTopic.delete(topic);
  }
  function dropSocket(ws: WebSocket) {
    const s = sockets.get(ws);
    if (!s) return;
    for (const topic of [...s.topics.keys()]) unsubscribeSocket(ws, s, topic);
    sockets.delete(ws);
  }

  /**
   * One event to its topic's subscribers. Stale subscriptions (authorized before the latest access
   * change) are checked again first, in one authorizer call for the whole topic; then the text,
   * encoded once, goes out SEND_BATCH sockets per turn of the event loop. Returns null when it all
   * happened synchronously (the common case: nothing stale, a small audience).
   */
  function deliver(e: DomainEvent, epoch: number): Promise<void> | null {
    const audience = byTopic.get(e.topic);
    if (!audience) return null;
    const stale: WebSocket[] = [];
    for (const ws of audience) {
      const s = sockets.get(ws);
      const verified = s?.topics.get(e.topic);
      if (s && verified !== undefined && verified < epoch && !isOwnTopic(s.userId, e.topic)) stale.push(ws);
    }
    const frame = Buffer.from(JSON.stringify({ type: 'event', topic: e.topic, event: e.event, data: e.data } as ServerMessage));
    if (!stale.length) return fanOut(e.topic, frame);
    return recheck(e.topic, stale, epoch).then(() => fanOut(e.topic, frame) ?? undefined);
  }

  async function recheck(topic: string, stale: WebSocket[], epoch: number) {
    const users = stale.map((ws) => sockets.get(ws)?.userId).filter((u): u is string => u !== undefined);
    const still = await app.topics.allowedMany(users, topic).catch((err: unknown) => {
      app.log.warn({ err, topic }, 'realtime re-authorization failed: the stale subscriptions end');
      return new Set<string>();
    });
    const ended = Buffer.from(
      JSON.stringify({ type: 'error', topic, code: ErrorCode.Forbidden, message: 'Access to this topic ended' } satisfies ServerMessage),
    );
    for (const ws of stale) {
      const s = sockets.get(ws);
      if (!s?.topics.has(topic)) continue;
      if (still.has(s.userId)) {
        // A subscription made again meanwhile keeps its newer epoch.
        if (s.topics.get(topic)! < epoch) s.topics.set(topic, epoch);
        continue;
      }
      unsubscribeSocket(ws, s, topic);
      if (ws.readyState === ws.OPEN) ws.send(ended, { binary: false });
    }
  }

  /** Sends the frame to the topic's subscribers as they are now, in batches; null when one batch did. */
  function fanOut(topic: string, frame: Buffer): Promise<void> | null {
    const targets = [...(byTopic.get(topic) ?? [])];
    const sendRange = (from: number) => {
      const to = Math.min(targets.length, from + SEND_BATCH);
      for (let i = from; i < to; i++) {
        const ws = targets[i]!;
        if (ws.readyState === ws.OPEN && sockets.get(ws)?.topics.has(topic)) ws.send(frame, { binary: false });
      }
      return to;
    };
    let next = sendRange(0);
    if (next >= targets.length) return null;
    return new Promise<void>((resolve) => {
      const step = () => {
        next = sendRange(next);
        if (next >= targets.length) resolve();
        else setImmediate(step);
      };
      setImmediate(step);
    });
  }

  // Events of one topic are delivered in arrival order; a topic whose delivery waits (a re-check on
  // the database, a fan-out to thousands) holds up only its own later events, never the other topics.
  const unsubscribe = ctx.bus.subscribe((e: DomainEvent) => {
    if (accessMayChange(e.event)) accessEpoch += 1;
    const epoch = accessEpoch;
    const before = pending.get(e.topic);
    const run = before ? before.then(() => deliver(e, epoch) ?? undefined) : deliver(e, epoch);
    if (!run) return;
    const tracked = run
      .catch((err: unknown) => app.log.warn({ err, topic: e.topic }, 'realtime delivery failed'))
      .finally(() => {
        if (pending.get(e.topic) === tracked) pending.delete(e.topic);
      });
    pending.set(e.topic, tracked);
  });
  // Server heartbeats (ADR 0025): every interval each socket is pinged; one that answered nothing
  // (no pong, no message) since the previous ping is closed, so a client that vanished without closing
  // TCP (a laptop lid, a cut network) loses its socket, subscriptions and presence within two intervals.
  const heartbeat = setInterval(() => {
    for (const [ws, s] of sockets) {
      if (!s.alive) {
        app.log.info({ userId: s.userId }, 'realtime socket missed its heartbeat: closed');
        ws.terminate();
        continue;
      }
      s.alive = false;
      if (ws.readyState === ws.OPEN) ws.ping();
    }
  }, ctx.config.realtimeHeartbeatMs);
  heartbeat.unref();
  // Presence updates of closing sockets write to the database, which closes after this hook
  // (bootstrap.ts): the hook waits for every socket to close (1 s, then terminated) and for those
  // updates to end, so none of them meets a closed pool.
  const disconnecting = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown> | undefined) => {
    if (!work) return;
    const tracked: Promise<unknown> = work.catch(() => undefined).finally(() => disconnecting.delete(tracked));
    disconnecting.add(tracked);
  };
  const closeSocket = (ws: WebSocket) =>
    new Promise<void>((resolve) => {
      if (ws.readyState === ws.CLOSED) return resolve();
      const timer = setTimeout(() => ws.terminate(), 1000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1001, 'server shutting down');
    });
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    await Promise.all([...sockets.keys()].map(closeSocket));
    await Promise.all([...disconnecting]);
  });

  /** A client's message, or null when it is not JSON or not in the catalogue. */
  function parseClientMessage(raw: Buffer) {
    try {
      const parsed = clientMessageSchema.safeParse(JSON.parse(raw.toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /**
   * A signed-out visitor's socket: counted in the guests' presence, may only hear the public config
   * topic, answers pings (which keep its presence fresh). Nothing else is delivered to it.
   */
  function guestSocket(socket: WebSocket, log: FastifyInstance['log']) {
    const send = (m: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(m));
    const presenceId = opts.onGuestConnect?.().catch((err: unknown) => {
      log.warn({ err }, 'guest presence update failed');
      return null;
    });
    const state: SocketState = { userId: '', topics: new Map<string, number>(), alive: true };
    socket.on('pong', () => (state.alive = true));
    sockets.set(socket, state);
    send({ type: 'hello', uid: null });
    socket.on('message', (raw: Buffer) => {
      const m = parseClientMessage(raw);
      if (!m) return send({ type: 'error', code: ErrorCode.Validation, message: 'Malformed message' });
      if (m.type === 'ping') {
        void presenceId?.then((id) => (id ? opts.onGuestPing?.(id) : undefined)).catch(() => undefined);
        return send({ type: 'pong' });
      }
      if (m.type === 'unsubscribe') return unsubscribeSocket(socket, state, m.topic);
      if (m.topic !== topics.config())
        return send({ type: 'error', topic: m.topic, code: ErrorCode.Unauthorized, message: 'Sign in to subscribe to this topic' });
      subscribeSocket(socket, state, m.topic, Number.MAX_SAFE_INTEGER);
      send({ type: 'subscribed', topic: m.topic });
    });
    socket.on('close', () => {
      dropSocket(socket);
      track(presenceId?.then((id) => (id ? opts.onGuestDisconnect?.(id) : undefined)));
    });
  }

  app.get('/v1/realtime', { websocket: true, schema: { tags: ['realtime'], hide: true } }, (socket, req) => {
    const principal = req.principal;
    if (!principal && (req.query as { guest?: string } | undefined)?.guest === '1') return guestSocket(socket, req.log);
    if (!principal) {
      socket.send(JSON.stringify({ type: 'error', code: ErrorCode.Unauthorized, message: 'Sign in to continue' } satisfies ServerMessage));
      socket.close(4401, 'unauthorized');
      return;
    }
    const uid = principal.user.id;
    const state: SocketState = { userId: uid, topics: new Map<string, number>(), alive: true };
    socket.on('pong', () => (state.alive = true));
    sockets.set(socket, state);
    subscribeSocket(socket, state, topics.user(uid), Number.MAX_SAFE_INTEGER);
    void opts.onConnect?.(uid).catch((err) => req.log.warn({ err }, 'presence update failed'));
    const send = (m: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(m));
    send({ type: 'hello', uid });

    socket.on('message', async (raw: Buffer) => {
      state.alive = true;
      const m = parseClientMessage(raw);
      if (!m) return send({ type: 'error', code: ErrorCode.Validation, message: 'Malformed message' });
      if (m.type === 'ping') return send({ type: 'pong' });
      if (m.type === 'unsubscribe') return unsubscribeSocket(socket, state, m.topic);
      const epoch = accessEpoch;
      if (await app.topics.allowed(uid, m.topic)) {
        if (!sockets.has(socket)) return;
        subscribeSocket(socket, state, m.topic, epoch);
        send({ type: 'subscribed', topic: m.topic });
      } else {
        send({ type: 'error', topic: m.topic, code: ErrorCode.Forbidden, message: 'Not allowed to subscribe to this topic' });
      }
    });
    socket.on('close', () => {
      dropSocket(socket);
      track(opts.onDisconnect?.(uid));
    });
  });
}
