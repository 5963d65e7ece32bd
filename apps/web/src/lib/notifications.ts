import {
  NOTIFICATION_ACTION_TIMEOUT_MS,
  NOTIFICATION_PENDING_TIMEOUT_MS,
  NOTIFICATION_PROGRESS_TICK_MS,
  NOTIFICATION_RETRY_MS,
  NOTIFICATION_TIMEOUT_MS,
} from '@sightline/contracts';
import { createStore, useStore } from './create-store';
import { local } from './storage';

/** Notification entity of spec §3. */
export type NotificationType = 'success' | 'error' | 'pending';
export interface NotificationLink {
  text: string;
  /** A path inside the product (navigates in the app). */
  path?: string;
  /** An external address (opens a new tab). */
  href?: string;
}
export interface NotificationCallback {
  text: string;
  func: (...args: any[]) => unknown;
  args?: unknown[];
}
export interface NotificationInput {
  id?: string;
  type: NotificationType;
  message: string;
  link?: NotificationLink;
  callback?: NotificationCallback;
  /** Show the close button (default true). */
  close?: boolean;
  /** Never auto-dismissed. */
  permanent?: boolean;
  msTimeout?: number;
}
export interface ActiveNotification extends Omit<NotificationInput, 'id' | 'close'> {
  id: string;
  close: boolean;
  createdAt: number;
  /** Total time before dismissal, in ms. */
  timeout: number;
  /** Time left, in ms; counts down by 100 ms ticks unless paused or permanent. */
  remaining: number;
  paused: boolean;
}
export interface PastNotification {
  id: string;
  type: NotificationType;
  message: string;
  createdAt: number;
  link?: { text: string; path?: string; href?: string };
}
export interface NotificationState {
  active: ActiveNotification[];
  history: PastNotification[];
}

const HISTORY_KEY = 'sightline.notifications';
const HISTORY_MAX = 100;

/** Timeout rules of spec §9: own msTimeout, else pending 10 s, else 6 s with an action, else 4 s. */
export function timeoutFor(input: Pick<NotificationInput, 'type' | 'msTimeout' | 'link' | 'callback'>): number {
  if (typeof input.msTimeout === 'number') return input.msTimeout;
  if (input.type === 'pending') return NOTIFICATION_PENDING_TIMEOUT_MS;
  if (input.link || input.callback) return NOTIFICATION_ACTION_TIMEOUT_MS;
  return NOTIFICATION_TIMEOUT_MS;
}

function loadHistory(): PastNotification[] {
  try {
    const raw = local.get(HISTORY_KEY);
    const parsed = raw ? (JSON.parse(raw) as PastNotification[]) : [];
    return Array.isArray(parsed) ? parsed.slice(0, HISTORY_MAX) : [];
  } catch {
    return [];
  }
}

export function createNotificationStore(options: { persist?: boolean } = {}) {
  const persist = options.persist ?? true;
  const store = createStore<NotificationState>({ active: [], history: persist ? loadHistory() : [] });
  let ticker: ReturnType<typeof setInterval> | null = null;
  let counter = 0;

  const needsTicking = (n: ActiveNotification) => !n.permanent && !n.paused;

  const syncTicker = () => {
    const any = store.getState().active.some(needsTicking);
    if (any && !ticker) ticker = setInterval(tick, NOTIFICATION_PROGRESS_TICK_MS);
    if (!any && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  function tick() {
    store.setState((state) => ({
      ...state,
      active: state.active.map((n) => (needsTicking(n) ? { ...n, remaining: n.remaining - NOTIFICATION_PROGRESS_TICK_MS } : n)).filter((n) => n.remaining > 0),
    }));
    syncTicker();
  }

  const saveHistory = (history: PastNotification[]) => {
    if (persist) local.set(HISTORY_KEY, JSON.stringify(history.slice(0, HISTORY_MAX)));
  };

  function notify(input: NotificationInput): string {
    const id = input.id ?? `n${Date.now().toString(36)}${(counter += 1)}`;
    const timeout = timeoutFor(input);
    const entry: ActiveNotification = {
      ...input,
      id,
      close: input.close ?? true,
      createdAt: Date.now(),
      timeout,
      remaining: timeout,
      paused: false,
    };
    const past: PastNotification = {
      id,
      type: input.type,
      message: input.message,
      createdAt: entry.createdAt,
      link: input.link ? { text: input.link.text, path: input.link.path, href: input.link.href } : undefined,
    };
    store.setState((state) => {
      const history = [past, ...state.history.filter((h) => h.id !== id)].slice(0, HISTORY_MAX);
      saveHistory(history);
      // Same id replaces (a pending notification turning into its result).
      return { active: [...state.active.filter((n) => n.id !== id), entry], history };
    });
    syncTicker();
    return id;
  }

  function dismiss(id: string): void {
    store.setState((state) => ({ ...state, active: state.active.filter((n) => n.id !== id) }));
    syncTicker();
  }

  const setPaused = (id: string, paused: boolean) => {
    store.setState((state) => ({ ...state, active: state.active.map((n) => (n.id === id ? { ...n, paused } : n)) }));
    syncTicker();
  };

  return {
    store,
    notify,
    success: (message: string, extra: Partial<NotificationInput> = {}) => notify({ ...extra, type: 'success', message }),
    error: (message: string, extra: Partial<NotificationInput> = {}) => notify({ ...extra, type: 'error', message }),
    pending: (message: string, extra: Partial<NotificationInput> = {}) => notify({ ...extra, type: 'pending', message }),
    /** Spec §9's retry notification: a pending notice for NOTIFICATION_RETRY_MS (2 s) when a retry is started. */
    retry: (message: string, extra: Partial<NotificationInput> = {}) => notify({ ...extra, type: 'pending', message, msTimeout: NOTIFICATION_RETRY_MS }),
    dismiss,
    /** Pointer entered: the countdown stops (spec §4). */
    pause: (id: string) => setPaused(id, true),
    resume: (id: string) => setPaused(id, false),
    /** Dismisses, then follows the link (path in the app, href in a new tab) or runs the callback. */
    act(id: string, navigate: (path: string) => void): void {
      const n = store.getState().active.find((x) => x.id === id);
      dismiss(id);
      if (!n) return;
      if (n.link?.path) navigate(n.link.path);
      else if (n.link?.href) window.open(n.link.href, '_blank', 'noopener,noreferrer');
      else if (n.callback) n.callback.func(...(n.callback.args ?? []));
    },
    clearHistory(): void {
      store.setState((state) => ({ ...state, history: [] }));
      saveHistory([]);
    },
    /** Test helper: drop everything and stop timers. */
    reset(): void {
      if (ticker) clearInterval(ticker);
      ticker = null;
      store.setState({ active: [], history: [] });
    },
  };
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;

/** The app-wide notification store. */
export const notifications = createNotificationStore();

export const useNotifications = <T = NotificationState>(selector?: (s: NotificationState) => T) => useStore(notifications.store, selector);
