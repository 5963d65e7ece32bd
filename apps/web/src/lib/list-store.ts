import { createStore, useStore, type Store } from './create-store';
import { createLogger, type Logger } from './logger';

/** Client list state of spec §3: an initialized flag and the items (newest first). */
export interface ListState<T> {
  initialized: boolean;
  all: T[];
}

export interface ListStore<T extends { id: string }> {
  store: Store<ListState<T>>;
  /** Marks the list as loaded and replaces the items. */
  set(items: T[]): void;
  /** Adds one item at the front; an item with the same id is replaced and moved to the front. */
  add(item: T): void;
  /** Adds a batch at the front, skipping ids already present and duplicates inside the batch. */
  addMany(items: T[]): void;
  /** Merge-updates the item with this id; returns false (and logs) when it is missing. */
  update(id: string, patch: Partial<T> | ((item: T) => T)): boolean;
  /** Update that retries every `intervalMs` until the item appears (spec §4: datasets retry every 2 s). */
  updateWhenPresent(id: string, patch: Partial<T>, options?: { intervalMs?: number; attempts?: number }): Promise<boolean>;
  /** Removes by id; returns false (and logs) when missing. */
  remove(id: string): boolean;
  /** Removes every item matching the predicate; returns how many went. */
  removeWhere(predicate: (item: T) => boolean): number;
  get(id: string): T | undefined;
  reset(): void;
}

/** Deep-merges plain objects (meta, dates, stats ...), so a partial nested patch keeps siblings. */
function merge<T>(target: T, patch: Partial<T>): T {
  if (!isPlainObject(target) || !isPlainObject(patch)) return patch as T;
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? merge(prev, value) : value;
  }
  return out as T;
}
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

export function createListStore<T extends { id: string }>(name: string, logger: Logger = createLogger(name)): ListStore<T> {
  const store = createStore<ListState<T>>({ initialized: false, all: [] });
  const has = (id: string) => store.getState().all.some((item) => item.id === id);

  const api: ListStore<T> = {
    store,
    set(items) {
      const seen = new Set<string>();
      store.setState({ initialized: true, all: items.filter((i) => !seen.has(i.id) && seen.add(i.id)) });
    },
    add(item) {
      store.setState((s) => ({ ...s, all: [item, ...s.all.filter((i) => i.id !== item.id)] }));
    },
    addMany(items) {
      store.setState((s) => {
        const seen = new Set(s.all.map((i) => i.id));
        const fresh: T[] = [];
        for (const item of items) {
          if (seen.has(item.id)) continue;
          seen.add(item.id);
          fresh.push(item);
        }
        return fresh.length ? { ...s, all: [...fresh, ...s.all] } : s;
      });
    },
    update(id, patch) {
      if (!has(id)) {
        logger.info(`${name}: update skipped, ${id} not in list`);
        return false;
      }
      store.setState((s) => ({
        ...s,
        all: s.all.map((i) => (i.id === id ? (typeof patch === 'function' ? patch(i) : merge(i, patch)) : i)),
      }));
      return true;
    },
    updateWhenPresent(id, patch, { intervalMs = 2000, attempts = 30 } = {}) {
      return new Promise((resolve) => {
        let tries = 0;
        const attempt = () => {
          tries += 1;
          if (has(id)) return resolve(api.update(id, patch));
          if (tries >= attempts) {
            logger.warn(`${name}: gave up updating ${id} after ${tries} tries`);
            return resolve(false);
          }
          logger.debug(`${name}: ${id} not in list yet, retrying in ${intervalMs} ms`);
          setTimeout(attempt, intervalMs);
        };
        attempt();
      });
    },
    remove(id) {
      if (!has(id)) {
        logger.info(`${name}: remove skipped, ${id} not in list`);
        return false;
      }
      store.setState((s) => ({ ...s, all: s.all.filter((i) => i.id !== id) }));
      return true;
    },
    removeWhere(predicate) {
      const before = store.getState().all.length;
      store.setState((s) => {
        const all = s.all.filter((i) => !predicate(i));
        return all.length === s.all.length ? s : { ...s, all };
      });
      return before - store.getState().all.length;
    },
    get: (id) => store.getState().all.find((i) => i.id === id),
    reset() {
      store.setState({ initialized: false, all: [] });
    },
  };
  return api;
}

export function useList<T extends { id: string }>(list: ListStore<T>): ListState<T> {
  return useStore(list.store);
}

/* Models (spec §3, §4): the list also holds the active project; bulk removal by project. */
export interface ModelLike {
  id: string;
  project?: { id: string } | null;
  order?: number | null;
  dates?: { updated?: string | null } | null;
}

export function createModelListStore<T extends ModelLike>(logger?: Logger) {
  const list = createListStore<T>('models', logger);
  const active = createStore<string | null>(null);
  return {
    ...list,
    activeProject: active,
    setActiveProject: (projectId: string | null) => active.setState(projectId),
    /** Deleting a project removes its models locally (spec §4). */
    removeByProject: (projectId: string) => list.removeWhere((m) => m.project?.id === projectId),
  };
}

/** The active-project list: by order when any model has one, else most recently updated first. */
export function sortProjectModels<T extends ModelLike>(models: T[]): T[] {
  const anyOrder = models.some((m) => typeof m.order === 'number');
  const copy = [...models];
  if (anyOrder) return copy.sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER));
  return copy.sort((a, b) => Date.parse(b.dates?.updated ?? '0') - Date.parse(a.dates?.updated ?? '0'));
}
