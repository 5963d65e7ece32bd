import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { ErrorCode, clientMessageSchema, type ServerMessage, topics } from '@sightline/contracts';
import type { DomainEvent } from './event-bus.js';

export type TopicAuthorizer = (userId: string, topic: string) => Promise<boolean>;

/**
 * Who may subscribe to what. Modules add authorizers for their topics (model:<id>, dataset:<id>);
 * a user's own topics are always allowed.
 */
export class TopicRegistry {
  private authorizers = new Map<string, TopicAuthorizer>();
  register(prefix: string, fn: TopicAuthorizer) {
    this.authorizers.set(prefix, fn);
  }
  async allowed(userId: string, topic: string): Promise<boolean> {
    if (topic === topics.user(userId) || topic.startsWith(`${topics.user(userId)}:`) || topic === topics.presence(userId) || topic === topics.config()) return true;
    const prefix = topic.split(':')[0]!;
    const fn = this.authorizers.get(prefix);
    return fn ? fn(userId, topic) : false;
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
}

export async function realtimeRoutes(app: FastifyInstance, opts: RealtimeOptions) {
  const ctx = app.ctx;
  const sockets = new Map<WebSocket, { userId: string; topics: Set<string> }>();

  const unsubscribe = ctx.bus.subscribe((e: DomainEvent) => {
    const msg = { type: 'event', topic: e.topic, event: e.event, data: e.data } as ServerMessage;
    const text = JSON.stringify(msg);
    for (const [ws, s] of sockets) if (s.topics.has(e.topic) && ws.readyState === ws.OPEN) ws.send(text);
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    for (const ws of sockets.keys()) ws.close(1001, 'server shutting down');
  });

  app.get('/v1/realtime', { websocket: true, schema: { tags: ['realtime'], hide: true } }, (socket, req) => {
    const principal = req.principal;
    if (!principal) {
      socket.send(JSON.stringify({ type: 'error', code: ErrorCode.Unauthorized, message: 'Sign in to continue' } satisfies ServerMessage));
      socket.close(4401, 'unauthorized');
      return;
    }
    const uid = principal.user.id;
    const state = { userId: uid, topics: new Set<string>([topics.user(uid)]) };
    sockets.set(socket, state);
    void opts.onConnect?.(uid).catch((err) => req.log.warn({ err }, 'presence update failed'));
    const send = (m: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(m));
    send({ type: 'hello', uid });

    socket.on('message', async (raw: Buffer) => {
      let parsed;
      try {
        parsed = clientMessageSchema.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) return send({ type: 'error', code: ErrorCode.Validation, message: 'Malformed message' });
      const m = parsed.data;
      if (m.type === 'ping') return send({ type: 'pong' });
      if (m.type === 'unsubscribe') {
        state.topics.delete(m.topic);
        return;
      }
      if (await app.topics.allowed(uid, m.topic)) {
        state.topics.add(m.topic);
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
