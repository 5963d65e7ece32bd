import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, RealtimeClient, realtimeUrl } from './realtime';
import { applyRealtimeEvent, bindRealtime } from './realtime-bridge';
import { makeUser } from '../test/render';

class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
  emit(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const makeClient = () =>
  new RealtimeClient({ url: 'ws://test/v1/realtime', WebSocketImpl: FakeSocket as unknown as typeof WebSocket, random: () => 0, baseDelayMs: 1000 });

describe('realtime client', () => {
  afterEach(() => {
    FakeSocket.instances = [];
    vi.useRealTimers();
  });

  it('builds ws(s)://host/v1/realtime', () => {
    expect(realtimeUrl({ protocol: 'https:', host: 'hub.example.com' })).toBe('wss://hub.example.com/v1/realtime');
    expect(realtimeUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/v1/realtime');
  });

  it('grows the backoff exponentially up to the maximum', () => {
    expect(backoffDelay(0, 1000, 30_000, () => 1)).toBe(1000);
    expect(backoffDelay(3, 1000, 30_000, () => 1)).toBe(8000);
    expect(backoffDelay(10, 1000, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(3, 1000, 30_000, () => 0)).toBe(4000);
  });

  it('subscribes on open, reference-counts topics and unsubscribes the last one', () => {
    const client = makeClient();
    client.subscribe('model:1');
    client.connect();
    const socket = FakeSocket.instances[0];
    socket.open();
    expect(socket.sent).toContainEqual({ type: 'subscribe', topic: 'model:1' });
    const off1 = client.subscribe('dataset:2');
    const off2 = client.subscribe('dataset:2');
    expect(socket.sent.filter((m) => JSON.stringify(m).includes('dataset:2'))).toHaveLength(1);
    off1();
    expect(socket.sent).not.toContainEqual({ type: 'unsubscribe', topic: 'dataset:2' });
    off2();
    expect(socket.sent).toContainEqual({ type: 'unsubscribe', topic: 'dataset:2' });
    client.disconnect();
  });

  it('reconnects with backoff and re-subscribes its topics', async () => {
    vi.useFakeTimers();
    const client = makeClient();
    client.connect();
    client.subscribe('user:u1');
    FakeSocket.instances[0].open();
    FakeSocket.instances[0].drop();
    expect(client.status.getState()).toBe('closed');
    vi.advanceTimersByTime(499);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1].open();
    expect(FakeSocket.instances[1].sent).toContainEqual({ type: 'subscribe', topic: 'user:u1' });
    client.disconnect();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('drops events whose payload breaks the contract', () => {
    const client = makeClient();
    const handler = vi.fn();
    client.subscribe('model:1', handler);
    client.connect();
    FakeSocket.instances[0].open();
    FakeSocket.instances[0].emit({ type: 'event', topic: 'model:1', event: 'model.updated', data: { projectId: 3 } });
    FakeSocket.instances[0].emit({ type: 'event', topic: 'model:1', event: 'model.renamed', data: { id: '1', projectId: null } });
    expect(handler).not.toHaveBeenCalled();
    FakeSocket.instances[0].emit({ type: 'event', topic: 'model:1', event: 'model.updated', data: null });
    expect(handler).toHaveBeenCalledWith({ type: 'event', topic: 'model:1', event: 'model.updated', data: null });
    client.disconnect();
  });

  it('routes events to topic handlers', () => {
    const client = makeClient();
    const handler = vi.fn();
    client.subscribe('model:1', handler);
    client.connect();
    FakeSocket.instances[0].open();
    FakeSocket.instances[0].emit({ type: 'event', topic: 'model:1', event: 'model.updated', data: { id: '1', projectId: null } });
    FakeSocket.instances[0].emit({ type: 'event', topic: 'model:2', event: 'model.updated', data: { id: '2', projectId: null } });
    expect(handler).toHaveBeenCalledTimes(1);
    client.disconnect();
  });
});

describe('realtime → query cache', () => {
  it('user.updated on user:<uid> replaces the me query', () => {
    const client = makeClient();
    const queryClient = new QueryClient();
    queryClient.setQueryData(['me'], makeUser({ id: 'u1', firstName: 'Old' }));
    const off = bindRealtime(client, queryClient, 'u1');
    const socket = FakeSocket.instances[0];
    socket.open();
    expect(socket.sent).toContainEqual({ type: 'subscribe', topic: 'user:u1' });
    socket.emit({ type: 'event', topic: 'user:u1', event: 'user.updated', data: makeUser({ id: 'u1', firstName: 'New' }) });
    expect(queryClient.getQueryData(['me'])).toEqual(makeUser({ id: 'u1', firstName: 'New' }));
    off();
  });

  it('<entity>.updated merges into the detail query; .deleted removes it', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['models', 'm1'], { id: 'm1', meta: { name: 'a' }, projectId: null });
    applyRealtimeEvent(queryClient, { type: 'event', topic: 'model:m1', event: 'model.updated', data: { id: 'm1', projectId: 'p1' } });
    expect(queryClient.getQueryData(['models', 'm1'])).toEqual({ id: 'm1', meta: { name: 'a' }, projectId: 'p1' });
    applyRealtimeEvent(queryClient, { type: 'event', topic: 'model:m1', event: 'model.deleted', data: null });
    expect(queryClient.getQueryData(['models', 'm1'])).toBeUndefined();
  });
});
