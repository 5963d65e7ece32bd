/**
 * Saving that loses nothing (ADR 0040). Each image's labels are sent on change after a debounce, with the
 * revision they were edited from; the server refuses a save over a newer revision (409), and the queue then
 * holds both versions until the user keeps theirs (re-sent on top of the new revision) or takes the server's.
 * Unsent edits live in storage (localStorage) from the first keystroke, so a closed tab or a server that is
 * down loses nothing: they are sent again when the page comes back or the network returns.
 */
import type { ImageLabels } from '@sightline/contracts';

export type { ImageLabels };
export type SaveFailure = 'conflict' | 'offline' | 'invalid';
export type EntryStatus = 'pending' | 'saving' | 'offline' | 'conflict' | 'invalid';
export interface Entry {
  imageId: string;
  /** The server revision these labels were edited from. */
  baseRevision: number;
  labels: number[][];
  className: string | null;
  status: EntryStatus;
  /** The server's version when a save met a newer one. */
  theirs?: ImageLabels;
  message?: string;
}
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
export interface SaveQueueDeps {
  put(imageId: string, body: { revision: number; labels: number[][]; className: string | null }): Promise<ImageLabels>;
  get(imageId: string): Promise<ImageLabels>;
  /** What a thrown save error means: another revision won, the server is unreachable, or the labels are refused. */
  classify(error: unknown): { kind: SaveFailure; message?: string };
  storage: KeyValueStore | null;
  storageKey: string;
  debounceMs?: number;
  retryMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** A save the server accepted, or the server's version taken after a conflict. */
  onSaved?: (saved: ImageLabels) => void;
  onChange?: () => void;
}

export class SaveQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly timers = new Map<string, unknown>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly deps: Required<Omit<SaveQueueDeps, 'onSaved' | 'onChange'>> & Pick<SaveQueueDeps, 'onSaved' | 'onChange'>;

  constructor(deps: SaveQueueDeps) {
    this.deps = {
      debounceMs: 600,
      retryMs: 3000,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      ...deps,
    };
    for (const e of this.load()) this.entries.set(e.imageId, { ...e, status: e.status === 'conflict' || e.status === 'invalid' ? e.status : 'pending' });
  }

  /** Unsent labels of an image (shown instead of the server's until sent). */
  get(imageId: string): Entry | undefined {
    return this.entries.get(imageId);
  }
  all(): Entry[] {
    return [...this.entries.values()];
  }
  /** The worst state of all images: what the editor's save indicator shows. */
  summary(): 'saved' | EntryStatus {
    const order: EntryStatus[] = ['conflict', 'invalid', 'offline', 'saving', 'pending'];
    const statuses = new Set(this.all().map((e) => e.status));
    return order.find((s) => statuses.has(s)) ?? 'saved';
  }

  /** The labels of an image changed in the editor, edited from `baseRevision`. */
  edit(imageId: string, baseRevision: number, labels: number[][], className: string | null): void {
    const prev = this.entries.get(imageId);
    const entry: Entry = prev
      ? { ...prev, labels, className, status: prev.status === 'conflict' ? 'conflict' : prev.status === 'saving' ? 'saving' : 'pending' }
      : { imageId, baseRevision, labels, className, status: 'pending' };
    this.entries.set(imageId, entry);
    this.persist();
    if (entry.status !== 'conflict') this.schedule(imageId, this.deps.debounceMs);
    this.deps.onChange?.();
  }

  /** Sends every waiting image now (leaving an image, the network back, the page hidden). */
  async flushAll(): Promise<void> {
    await Promise.all(
      this.all()
        .filter((e) => e.status === 'pending' || e.status === 'offline')
        .map((e) => this.send(e.imageId)),
    );
  }

  /**
   * After a conflict: keep mine (sent on top of the server's revision), keep both (theirs plus my labels they lack,
   * sent on top) or take theirs (mine dropped).
   */
  async resolve(imageId: string, choice: 'mine' | 'both' | 'theirs'): Promise<void> {
    const entry = this.entries.get(imageId);
    if (!entry?.theirs) return;
    if (choice === 'theirs') {
      this.entries.delete(imageId);
      this.persist();
      this.deps.onSaved?.(entry.theirs);
      this.deps.onChange?.();
      return;
    }
    const labels = choice === 'both' ? mergeLabels(entry.theirs.labels, entry.labels) : entry.labels;
    this.entries.set(imageId, { ...entry, labels, baseRevision: entry.theirs.revision, theirs: undefined, status: 'pending' });
    this.persist();
    await this.send(imageId);
  }

  dispose(): void {
    for (const h of this.timers.values()) this.deps.clearTimer(h);
    this.timers.clear();
  }

  private schedule(imageId: string, ms: number) {
    const old = this.timers.get(imageId);
    if (old !== undefined) this.deps.clearTimer(old);
    this.timers.set(
      imageId,
      this.deps.setTimer(() => {
        this.timers.delete(imageId);
        void this.send(imageId);
      }, ms),
    );
  }

  /** One save at a time per image; edits made while it flies go in the next one, on the new revision. */
  send(imageId: string): Promise<void> {
    const flying = this.inFlight.get(imageId);
    if (flying) return flying.then(() => (this.entries.get(imageId)?.status === 'pending' ? this.send(imageId) : undefined));
    const entry = this.entries.get(imageId);
    if (!entry || entry.status === 'conflict' || entry.status === 'invalid') return Promise.resolve();
    const pendingTimer = this.timers.get(imageId);
    if (pendingTimer !== undefined) {
      this.deps.clearTimer(pendingTimer);
      this.timers.delete(imageId);
    }
    const sent = { labels: entry.labels, className: entry.className };
    this.entries.set(imageId, { ...entry, status: 'saving' });
    this.deps.onChange?.();
    const run = this.deps
      .put(imageId, { revision: entry.baseRevision, labels: sent.labels, className: sent.className })
      .then(
        (saved) => {
          const now = this.entries.get(imageId);
          if (now && (now.labels !== sent.labels || now.className !== sent.className)) {
            // Edited while saving: the newer labels go next, on the revision just written (ours).
            this.entries.set(imageId, { ...now, baseRevision: saved.revision, status: 'pending' });
            this.schedule(imageId, this.deps.debounceMs);
          } else this.entries.delete(imageId);
          this.persist();
          this.deps.onSaved?.(saved);
        },
        async (error: unknown) => {
          const { kind, message } = this.deps.classify(error);
          const now = this.entries.get(imageId) ?? entry;
          if (kind === 'conflict') {
            let theirs: ImageLabels | undefined;
            try {
              theirs = await this.deps.get(imageId);
            } catch {
              theirs = undefined;
            }
            if (theirs) this.entries.set(imageId, { ...now, status: 'conflict', theirs });
            else {
              this.entries.set(imageId, { ...now, status: 'offline' });
              this.schedule(imageId, this.deps.retryMs);
            }
          } else if (kind === 'offline') {
            this.entries.set(imageId, { ...now, status: 'offline' });
            this.schedule(imageId, this.deps.retryMs);
          } else this.entries.set(imageId, { ...now, status: 'invalid', message });
          this.persist();
        },
      )
      .finally(() => {
        this.inFlight.delete(imageId);
        this.deps.onChange?.();
      });
    this.inFlight.set(imageId, run);
    return run;
  }

  private load(): Entry[] {
    try {
      const raw = this.deps.storage?.getItem(this.deps.storageKey);
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(parsed) ? (parsed as Entry[]).filter((e) => typeof e?.imageId === 'string' && Array.isArray(e.labels)) : [];
    } catch {
      return [];
    }
  }

  private persist() {
    const storage = this.deps.storage;
    if (!storage) return;
    const list = this.all();
    try {
      if (list.length === 0) storage.removeItem(this.deps.storageKey);
      else storage.setItem(this.deps.storageKey, JSON.stringify(list));
    } catch {
      // Storage full or refused: the edits stay in memory and are still sent.
    }
  }
}

const sameRow = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) < 1e-9);
/** Their labels, then each of mine they do not have already. */
export const mergeLabels = (theirs: number[][], mine: number[][]): number[][] => [...theirs, ...mine.filter((row) => !theirs.some((t) => sameRow(t, row)))];
