import { describe, expect, it } from 'vitest';
import { SaveQueue, type ImageLabels, type KeyValueStore } from './save-queue';

class Conflict extends Error {}
class Offline extends Error {}

/** A labels store with the server's rule: a save names the revision it was edited from, else 409. */
function fakeServer() {
  const images = new Map<string, ImageLabels>([['img', { imageId: 'img', revision: 1, labels: [], className: null }]]);
  const state = { online: true, puts: 0 };
  return {
    state,
    images,
    /** Another tab saves over the image. */
    otherSaves(labels: number[][]) {
      const cur = images.get('img')!;
      images.set('img', { ...cur, revision: cur.revision + 1, labels });
    },
    put: async (imageId: string, body: { revision: number; labels: number[][]; className: string | null }) => {
      state.puts++;
      if (!state.online) throw new Offline();
      const cur = images.get(imageId)!;
      if (cur.revision !== body.revision) throw new Conflict();
      const next = { imageId, revision: cur.revision + 1, labels: body.labels, className: body.className };
      images.set(imageId, next);
      return next;
    },
    get: async (imageId: string) => {
      if (!state.online) throw new Offline();
      return images.get(imageId)!;
    },
  };
}

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

function manualTimers() {
  const due: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  return {
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms, cancelled: false };
      due.push(t);
      return t;
    },
    clearTimer: (h: unknown) => void ((h as { cancelled: boolean }).cancelled = true),
    async fire() {
      const now = due.splice(0).filter((t) => !t.cancelled);
      for (const t of now) t.fn();
      await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

function setup(storage = memoryStore(), server = fakeServer()) {
  const timers = manualTimers();
  const saved: ImageLabels[] = [];
  const queue = new SaveQueue({
    put: server.put,
    get: server.get,
    classify: (e) => ({ kind: e instanceof Conflict ? 'conflict' : e instanceof Offline ? 'offline' : 'invalid' }),
    storage,
    storageKey: 'k',
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
    onSaved: (s) => saved.push(s),
  });
  return { queue, server, storage, timers, saved };
}

describe('save queue (ADR 0040)', () => {
  it('debounces edits into one save with the revision they were made from', async () => {
    const { queue, server, timers, saved } = setup();
    queue.edit('img', 1, [[0, 0.5, 0.5, 0.1, 0.1]], null);
    queue.edit('img', 1, [[0, 0.5, 0.5, 0.2, 0.2]], null);
    expect(server.state.puts).toBe(0);
    await timers.fire();
    expect(server.state.puts).toBe(1);
    expect(server.images.get('img')).toMatchObject({ revision: 2, labels: [[0, 0.5, 0.5, 0.2, 0.2]] });
    expect(saved.at(-1)?.revision).toBe(2);
    expect(queue.summary()).toBe('saved');
  });

  it('an edit made while a save flies goes next on the revision just written', async () => {
    const { queue, server, timers } = setup();
    queue.edit('img', 1, [[0, 0.1, 0.1, 0.1, 0.1]], null);
    const first = queue.send('img');
    queue.edit('img', 1, [[1, 0.1, 0.1, 0.1, 0.1]], null);
    await first;
    await timers.fire();
    expect(server.images.get('img')).toMatchObject({ revision: 3, labels: [[1, 0.1, 0.1, 0.1, 0.1]] });
  });

  it('never overwrites another save: the conflict holds both, keep mine re-saves on the new revision', async () => {
    const { queue, server, timers } = setup();
    server.otherSaves([[3, 0.3, 0.3, 0.3, 0.3]]);
    queue.edit('img', 1, [[0, 0.5, 0.5, 0.5, 0.5]], null);
    await timers.fire();
    const entry = queue.get('img')!;
    expect(entry.status).toBe('conflict');
    expect(entry.theirs).toMatchObject({ revision: 2, labels: [[3, 0.3, 0.3, 0.3, 0.3]] });
    expect(server.images.get('img')!.labels).toEqual([[3, 0.3, 0.3, 0.3, 0.3]]);
    await queue.resolve('img', 'mine');
    expect(server.images.get('img')).toMatchObject({ revision: 3, labels: [[0, 0.5, 0.5, 0.5, 0.5]] });
    expect(queue.get('img')).toBeUndefined();
  });

  it('keep both sends their labels plus mine on top of their revision', async () => {
    const { queue, server, timers } = setup();
    server.otherSaves([[3, 0.3, 0.3, 0.3, 0.3]]);
    queue.edit(
      'img',
      1,
      [
        [0, 0.5, 0.5, 0.5, 0.5],
        [3, 0.3, 0.3, 0.3, 0.3],
      ],
      null,
    );
    await timers.fire();
    await queue.resolve('img', 'both');
    expect(server.images.get('img')).toMatchObject({
      revision: 3,
      labels: [
        [3, 0.3, 0.3, 0.3, 0.3],
        [0, 0.5, 0.5, 0.5, 0.5],
      ],
    });
  });

  it('take theirs drops mine and hands the server version to the editor', async () => {
    const { queue, server, timers, saved } = setup();
    server.otherSaves([[3, 0.3, 0.3, 0.3, 0.3]]);
    queue.edit('img', 1, [[0, 0.5, 0.5, 0.5, 0.5]], null);
    await timers.fire();
    await queue.resolve('img', 'theirs');
    expect(queue.all()).toEqual([]);
    expect(saved.at(-1)).toMatchObject({ revision: 2 });
    expect(server.state.puts).toBe(1);
  });

  it('keeps edits in storage while offline and sends them when the server is back, also after a reload', async () => {
    const storage = memoryStore();
    const server = fakeServer();
    server.state.online = false;
    const a = setup(storage, server);
    a.queue.edit('img', 1, [[0, 0.5, 0.5, 0.5, 0.5]], null);
    await a.timers.fire();
    expect(a.queue.get('img')?.status).toBe('offline');
    expect(a.queue.summary()).toBe('offline');
    expect(JSON.parse(storage.data.get('k')!)).toHaveLength(1);
    a.queue.dispose();
    // The tab is closed; a new one opens when the server is back.
    server.state.online = true;
    const b = setup(storage, server);
    expect(b.queue.get('img')?.status).toBe('pending');
    await b.queue.flushAll();
    expect(server.images.get('img')).toMatchObject({ revision: 2, labels: [[0, 0.5, 0.5, 0.5, 0.5]] });
    expect(storage.data.has('k')).toBe(false);
  });

  it('holds labels the server refuses until they are edited again', async () => {
    const { queue, timers, server } = setup();
    server.put = async () => {
      throw new Error('row 0: bad');
    };
    const q2 = new SaveQueue({
      put: server.put,
      get: server.get,
      classify: (e) => ({ kind: 'invalid', message: (e as Error).message }),
      storage: null,
      storageKey: 'k',
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    q2.edit('img', 1, [[9, 2, 2, 2, 2]], null);
    await timers.fire();
    expect(q2.get('img')).toMatchObject({ status: 'invalid', message: 'row 0: bad' });
    expect(queue.summary()).toBe('saved');
    expect(q2.summary()).toBe('invalid');
  });
});
