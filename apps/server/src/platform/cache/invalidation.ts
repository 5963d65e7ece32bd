import type { Database } from '../db/client.js';

/** The NOTIFY channel the triggers of migration 0017 send tags on (ADR 0017). */
export const INVALIDATE_CHANNEL = 'sightline_invalidate';

/** Tags name what an entry was built from; the database triggers send the same spelling. */
export const cacheTags = {
  user: (id: string) => `u:${id}`,
  model: (id: string) => `m:${id}`,
  project: (id: string) => `p:${id}`,
  /** a team (its deletion, its owner): migration 0021 */
  team: (id: string) => `t:${id}`,
  /** A user's item counts (migration 0024: datasets, projects, models, teams rows). */
  usage: (id: string) => `n:${id}`,
  /** A dataset's owner, team, privacy, trash or archive (migration 0037): what its signed image links are checked against. */
  dataset: (id: string) => `d:${id}`,
};

interface Evictable {
  evict(tag: string): void;
  clear(): void;
}

/**
 * Per-instance caches that the database keeps true: triggers (migration 0017) NOTIFY a tag when a
 * row behind cached entries changes, every instance LISTENs and evicts the entries carrying it, so a
 * revoked key or an ended session is refused everywhere as soon as the notification lands
 * (milliseconds). While the LISTEN connection is down the caches answer nothing (every lookup goes
 * to the database) and they start empty again once it is back: missed notifications cannot leave
 * stale entries. The writer's own instance also evicts synchronously (`evict`), without waiting for
 * its NOTIFY.
 */
export class Invalidations {
  private readonly caches = new Set<Evictable>();
  private unlisten: (() => Promise<void>) | null = null;
  /** true while notifications flow: caches only answer then */
  live = false;

  async start(database: Database): Promise<void> {
    this.unlisten = await database.listen(
      INVALIDATE_CHANNEL,
      (tag) => this.evict(tag),
      (state) => {
        this.clear();
        this.live = state === 'restored';
      },
    );
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    this.clear();
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** A cache whose entries live at most `ttlMs` (a backstop; eviction is by tag) and number at most `max`. */
  cache<V>(opts: { ttlMs: number; max: number }): TaggedCache<V> {
    const c = new TaggedCache<V>(this, opts.ttlMs, opts.max);
    this.caches.add(c);
    return c;
  }

  /** Evicts every entry carrying the tag, in every cache of this instance. */
  evict(tag: string): void {
    for (const c of this.caches) c.evict(tag);
  }

  clear(): void {
    for (const c of this.caches) c.clear();
  }
}

interface Entry<V> {
  value: V;
  tags: string[];
  expires: number;
}

/** Remembered evictions, so a value loaded while one of its tags was evicted is not kept. */
const EVICTION_LOG = 512;

export class TaggedCache<V> implements Evictable {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  private generation = 0;
  private readonly evictions: Array<{ gen: number; tag: string | null }> = [];

  constructor(
    private readonly owner: { live: boolean },
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  get size() {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    if (!this.owner.live) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= performance.now()) {
      this.remove(key);
      return undefined;
    }
    return e.value;
  }

  /** A marker to pass to `set` after a load: the value is dropped if one of its tags was evicted since. */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: V, tags: string[], since: number): void {
    if (!this.owner.live || this.evictedSince(since, tags)) return;
    this.remove(key);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.remove(oldest);
    }
    this.entries.set(key, { value, tags, expires: performance.now() + this.ttlMs });
    for (const t of tags) {
      let keys = this.byTag.get(t);
      if (!keys) this.byTag.set(t, (keys = new Set()));
      keys.add(key);
    }
  }

  /**
   * The cached value, else `load()` stored under its tags (unless one of them was evicted while it
   * loaded). `load` answering null is not cached.
   */
  async getOrLoad(key: string, load: () => Promise<{ value: V; tags: string[] } | null>): Promise<V | null> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const since = this.mark();
    const loaded = await load();
    if (!loaded) return null;
    this.set(key, loaded.value, loaded.tags, since);
    return loaded.value;
  }

  delete(key: string): void {
    this.remove(key);
  }

  evict(tag: string): void {
    this.log(tag);
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const k of [...keys]) this.remove(k);
    this.byTag.delete(tag);
  }

  clear(): void {
    this.log(null);
    this.entries.clear();
    this.byTag.clear();
  }

  private log(tag: string | null) {
    this.generation += 1;
    this.evictions.push({ gen: this.generation, tag });
    if (this.evictions.length > EVICTION_LOG) this.evictions.shift();
  }

  private evictedSince(since: number, tags: string[]): boolean {
    if (since === this.generation) return false;
    const first = this.evictions[0];
    // The log no longer reaches back to `since`: assume the worst.
    if (!first || first.gen > since + 1) return true;
    for (let i = this.evictions.length - 1; i >= 0 && this.evictions[i]!.gen > since; i--) {
      const t = this.evictions[i]!.tag;
      if (t === null || tags.includes(t)) return true;
    }
    return false;
  }

  private remove(key: string) {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    for (const t of e.tags) {
      const keys = this.byTag.get(t);
      if (!keys) continue;
      keys.delete(key);
      if (!keys.size) this.byTag.delete(t);
    }
  }
}
