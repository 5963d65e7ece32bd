import { parseServerEvent, type ClientMessage, type ServerEventMessage, type ServerMessage } from '@sightline/contracts';
import { createStore } from './create-store';
import { createLogger } from './logger';

const log = createLogger('realtime');

export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'closed';
type EventHandler = (message: ServerEventMessage) => void;

export interface RealtimeOptions {
  url?: string;
  WebSocketImpl?: typeof WebSocket;
  /** Backoff: min(maxDelay, baseDelay * 2^attempt), with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  pingMs?: number;
  random?: () => number;
}

export function realtimeUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/v1/realtime`;
}

export function backoffDelay(attempt: number, base = 1000, max = 30_000, random = Math.random): number {
  const exp = Math.min(max, base * 2 ** attempt);
  return Math.round(exp / 2 + (exp / 2) * random());
}

/**
 * One WebSocket for the app: topics are reference-counted, re-subscribed after every reconnect,
 * and events go to the handlers of their topic and to the catch-all handlers.
 */
export class RealtimeClient {
  readonly status = createStore<RealtimeStatus>('idle');
  private socket: WebSocket | null = null;
  private readonly topics = new Map<string, number>();
  private readonly handlers = new Map<string, Set<EventHandler>>();
  private readonly anyHandlers = new Set<EventHandler>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private wanted = false;
  private readonly opts: Required<Omit<RealtimeOptions, 'url' | 'WebSocketImpl'>> & Pick<RealtimeOptions, 'url' | 'WebSocketImpl'>;

  constructor(options: RealtimeOptions = {}) {
    this.opts = { baseDelayMs: 1000, maxDelayMs: 30_000, pingMs: 25_000, random: Math.random, ...options };
  }

  connect(): void {
    this.wanted = true;
    if (this.socket && this.socket.readyState <= 1) return;
    const Impl = this.opts.WebSocketImpl ?? globalThis.WebSocket;
    if (!Impl) return;
    this.status.setState('connecting');
    const socket = new Impl(this.opts.url ?? realtimeUrl());
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.status.setState('open');
      for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), this.opts.pingMs);
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      this.status.setState('closed');
      if (this.wanted) this.scheduleReconnect();
    };
    socket.onerror = () => log.debug('socket error');
  }

  disconnect(): void {
    this.wanted = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.status.setState('idle');
  }

  /** Subscribes to a topic (reference-counted); returns the unsubscribe function. */
  subscribe(topic: string, handler?: EventHandler): () => void {
    const count = this.topics.get(topic) ?? 0;
    this.topics.set(topic, count + 1);
    if (count === 0) this.send({ type: 'subscribe', topic });
    if (handler) {
      if (!this.handlers.has(topic)) this.handlers.set(topic, new Set());
      this.handlers.get(topic)!.add(handler);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (handler) this.handlers.get(topic)?.delete(handler);
      const left = (this.topics.get(topic) ?? 1) - 1;
      if (left <= 0) {
        this.topics.delete(topic);
        this.send({ type: 'unsubscribe', topic });
      } else this.topics.set(topic, left);
    };
  }

  onEvent(handler: EventHandler): () => void {
    this.anyHandlers.add(handler);
    return () => this.anyHandlers.delete(handler);
  }

  get subscribedTopics(): string[] {
    return [...this.topics.keys()];
  }

  private send(message: ClientMessage): void {
    if (this.socket && this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private receive(raw: unknown): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(raw)) as ServerMessage;
    } catch {
      log.warn('unparsable message');
      return;
    }
    if (message.type === 'event') {
      // Payloads are read against the contract's realtime catalogue: handlers get typed data.
      const event = parseServerEvent(message);
      if (!event) return log.warn('event outside the catalogue', message.event);
      for (const handler of this.handlers.get(event.topic) ?? []) handler(event);
      for (const handler of this.anyHandlers) handler(event);
    } else if (message.type === 'error') {
      log.warn('server error', message.code, message.message);
    }
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.opts.baseDelayMs, this.opts.maxDelayMs, this.opts.random);
    this.attempt += 1;
    log.debug(`reconnecting in ${delay} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.wanted) this.connect();
    }, delay);
  }
}

export const realtime = new RealtimeClient();
