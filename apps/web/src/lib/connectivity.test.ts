import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectivityMonitor, statusFor } from './connectivity';

describe('connectivity (spec §4)', () => {
  afterEach(() => vi.useRealTimers());

  it('is online below 2 failures, connecting from 2, offline from 9', () => {
    expect(statusFor(1)).toBe('online');
    expect(statusFor(2)).toBe('connecting');
    expect(statusFor(8)).toBe('connecting');
    expect(statusFor(9)).toBe('offline');
  });

  it('checks /alive every 5 s and recovers on the first success', async () => {
    vi.useFakeTimers();
    let up = false;
    const check = vi.fn(async () => up);
    const monitor = createConnectivityMonitor(check);
    monitor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(monitor.store.getState()).toMatchObject({ status: 'online', failures: 1 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(monitor.store.getState().status).toBe('connecting');
    await vi.advanceTimersByTimeAsync(5000 * 7);
    expect(monitor.store.getState()).toMatchObject({ status: 'offline', failures: 9 });
    expect(check).toHaveBeenCalledTimes(9);
    up = true;
    await vi.advanceTimersByTimeAsync(5000);
    expect(monitor.store.getState()).toMatchObject({ status: 'online', failures: 0 });
    monitor.stop();
  });
});
