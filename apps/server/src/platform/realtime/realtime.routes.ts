import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { ErrorCode, clientMessageSchema, parseTopic, topics, type ItemTopicKind, type ServerMessage } from '@sightline/contracts';
import type { DomainEvent } from './event-bus.js';

/** May this user listen to the item `id`'s topic (its id parsed by the contract's parseTopic). */
export type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;

/** A user's own topics (and the public config topic): always allowed, never re-checked. */
function isOwnTopic(userId: string, topic: string) {
  const t = parseTopic(topic);
  return t !== null && (t.kind === 'config' || ((t.kind === 'user' || t.kind === 'presence') && t.userId === userId));
}

/**
 * Who may subscribe to what. Modules add authorizers for their item topics (model:<id>,
 * dataset:<id>, …) from their register(); a user's own topics are always allowed.
 */
export class TopicRegistry {
  private authorizers = new Map<ItemTopicKind, TopicAuthorizer>();
  register(kind: ItemTopicKind, fn: TopicAuthorizer) {
    this.authorizers.set(kind, fn);
  }
  async allowed(userId: string, topic: string): Promise<boolean> {
    if (isOwnTopic(userId, topic)) return true;
    const t = parseTopic(topic);
    if (!t || t.kind === 'user' || t.kind === 'presence' || t.kind === 'config') return false;
    const fn = this.authorizers.get(t.kind);
    return fn ? fn(userId, t.id) : false;
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
 * Events after which a subscription may no longer be allowed: an item's privacy, team or deletion
 * state changed (`*.updated`, `*.deleted`, …) or a team's membership did (`team.*`). High-frequency
 * events (metrics, console, progress) change no access.
 */
export const accessMayChange = (event: string) => /^team\./.test(event) || /\.(updated|deleted|restored|transferred|moved|left)$/.test(event);

export async function realtimeRoutes(app: FastifyInstance, opts: RealtimeOptions) {
  const ctx = app.ctx;
  /** topic → the access epoch at which the subscription was last authorized */
  const sockets = new Map<WebSocket, { userId: string; topics: Map<string, number>; alive: boolean }>();
  // Bumped by every event that may change access (on every instance: events arrive through NOTIFY).
  // A subscription authorized before the current epoch is authorized again before its next event,
  // and dropped when no longer allowed (issue 16): a subscriber of an item that turned private stops
  // receiving its events, including the event of the change itself.
  let accessEpoch = 0;
  let delivering: Promise<void> = Promise.resolve();

  async function deliver(e: DomainEvent) {
    if (accessMayChange(e.event)) accessEpoch += 1;
    const msg = { type: 'event', topic: e.topic, event: e.event, data: e.data } as ServerMessage;
    const text = JSON.stringify(msg);
    for (const [ws, s] of sockets) {
      const verified = s.topics.get(e.topic);
      if (verified === undefined || ws.readyState !== ws.OPEN) continue;
      if (verified < accessEpoch && !isOwnTopic(s.userId, e.topic)) {
        const epoch = accessEpoch;
        const still = await app.topics.allowed(s.userId, e.topic).catch(() => false);
        if (!still) {
          s.topics.delete(e.topic);
          if (ws.readyState === ws.OPEN)
            ws.send(
              JSON.stringify({ type: 'error', topic: e.topic, code: ErrorCode.Forbidden, message: 'Access to this topic ended' } satisfies ServerMessage),
            );
          continue;
        }
        if (s.topics.has(e.topic)) s.topics.set(e.topic, epoch);
      }
      if (ws.readyState === ws.OPEN) ws.send(text);
    }
  }

  // One event at a time, in arrival order, even while a re-authorization waits on the database.
  const unsubscribe = ctx.bus.subscribe((e: DomainEvent) => {
    delivering = delivering.then(() => deliver(e)).catch((err: unknown) => app.log.warn({ err }, 'realtime delivery failed'));
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
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    for (const ws of sockets.keys()) ws.close(1001, 'server shutting down');
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
    const state = { userId: '', topics: new Map<string, number>(), alive: true };
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
      if (m.type === 'unsubscribe') return void state.topics.delete(m.topic);
      if (m.topic !== topics.config())
        return send({ type: 'error', topic: m.topic, code: ErrorCode.Unauthorized, message: 'Sign in to subscribe to this topic' });
      state.topics.set(m.topic, Number.MAX_SAFE_INTEGER);
      send({ type: 'subscribed', topic: m.topic });
    });
    socket.on('close', () => {
      sockets.delete(socket);
      void presenceId?.then((id) => (id ? opts.onGuestDisconnect?.(id) : undefined)).catch(() => undefined);
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
    const state = { userId: uid, topics: new Map<string, number>([[topics.user(uid), Number.MAX_SAFE_INTEGER]]), alive: true };
    socket.on('pong', () => (state.alive = true));
    sockets.set(socket, state);
    void opts.onConnect?.(uid).catch((err) => req.log.warn({ err }, 'presence update failed'));
    const send = (m: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(m));
    send({ type: 'hello', uid });

    socket.on('message', async (raw: Buffer) => {
      state.alive = true;
      const m = parseClientMessage(raw);
      if (!m) return send({ type: 'error', code: ErrorCode.Validation, message: 'Malformed message' });
      if (m.type === 'ping') return send({ type: 'pong' });
      if (m.type === 'unsubscribe') {
        state.topics.delete(m.topic);
        return;
      }
      const epoch = accessEpoch;
      if (await app.topics.allowed(uid, m.topic)) {
        state.topics.set(m.topic, epoch);
        send({ type: 'subscribed', topic: m.topic });
      } else {
        send({ type: 'error', topic: m.topic, code: ErrorCode.Forbidden, message: 'Not allowed to subscribe to this topic' });
      }
    });
    socket.on('close', () => {
      sockets.delete(socket);
      void opts.onDisconnect?.(uid).catch(() => undefined);
    });
  });
}
