import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makeUser, testQueryClient } from '../test/render';
import { useGuestPresence } from './guest-presence';

class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  closed = false;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.instances.push(this);
  }
  send() {}
  close() {
    this.closed = true;
    this.readyState = 3;
    this.onclose?.();
  }
}

function Probe() {
  useGuestPresence({ WebSocketImpl: FakeSocket as unknown as typeof WebSocket });
  return null;
}

describe('presence of signed-out visitors (spec §7 presence/guests)', () => {
  it('opens the guest socket while signed out and closes it when someone signs in', () => {
    FakeSocket.instances = [];
    const client = testQueryClient(null);
    const { rerender, unmount } = render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    expect(FakeSocket.instances.map((s) => s.url)).toEqual([`ws://${window.location.host}/v1/realtime?guest=1`]);
    client.setQueryData(['me'], makeUser());
    rerender(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    expect(FakeSocket.instances).toHaveLength(1);
    expect(FakeSocket.instances[0]!.closed).toBe(true);
    unmount();
  });

  it('opens none for a signed-in user', () => {
    FakeSocket.instances = [];
    const { unmount } = render(
      <QueryClientProvider client={testQueryClient(makeUser())}>
        <Probe />
      </QueryClientProvider>,
    );
    expect(FakeSocket.instances).toHaveLength(0);
    unmount();
  });
});
