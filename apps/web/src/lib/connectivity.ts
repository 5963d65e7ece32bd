import { CONNECTIVITY_CONNECTING_AFTER, CONNECTIVITY_INTERVAL_MS, CONNECTIVITY_OFFLINE_AFTER } from '@sightline/contracts';
import { createStore, useStore } from './create-store';

/** Connectivity of spec §4: online; connecting after 2 failed checks; offline after 9; checks every 5 s. */
export type Connectivity = 'online' | 'connecting' | 'offline';
export interface ConnectivityState {
  status: Connectivity;
  failures: number;
  lastCheck: number | null;
}

export function statusFor(failures: number): Connectivity {
  if (failures >= CONNECTIVITY_OFFLINE_AFTER) return 'offline';
  if (failures >= CONNECTIVITY_CONNECTING_AFTER) return 'connecting';
  return 'online';
}

export async function checkAlive(signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch('/alive', { cache: 'no-store', credentials: 'same-origin', signal });
    return res.ok;
  } catch {
    return false;
  }
}

export function createConnectivityMonitor(check: () => Promise<boolean> = checkAlive, intervalMs = CONNECTIVITY_INTERVAL_MS) {
  const store = createStore<ConnectivityState>({ status: 'online', failures: 0, lastCheck: null });
  let timer: ReturnType<typeof setInterval> | null = null;
  let running = false;

  async function runCheck(): Promise<void> {
    if (running) return;
    running = true;
    try {
      const ok = await check();
      store.setState((s) => {
        const failures = ok ? 0 : s.failures + 1;
        return { status: statusFor(failures), failures, lastCheck: Date.now() };
      });
    } finally {
      running = false;
    }
  }

  return {
    store,
    runCheck,
    start() {
      if (timer) return;
      void runCheck();
      timer = setInterval(() => void runCheck(), intervalMs);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export const connectivity = createConnectivityMonitor();
export const useConnectivity = () => useStore(connectivity.store);
