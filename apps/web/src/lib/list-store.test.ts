import { afterEach, describe, expect, it, vi } from 'vitest';
import { createListStore, createModelListStore, sortProjectModels } from './list-store';
import type { Logger } from './logger';

interface Item {
  id: string;
  meta: { name: string; privacy: string };
  project?: { id: string };
  order?: number | null;
  dates?: { updated?: string | null };
}
const item = (id: string, extra: Partial<Item> = {}): Item => ({ id, meta: { name: id, privacy: 'private' }, ...extra });
const spyLogger = () => {
  const info = vi.fn<(...args: unknown[]) => void>();
  const logger: Logger = { debug: vi.fn(), info, warn: vi.fn(), error: vi.fn() };
  return Object.assign(logger, { info });
};

describe('list store (spec §4)', () => {
  afterEach(() => vi.useRealTimers());

  it('starts uninitialized and set() initializes', () => {
    const list = createListStore<Item>('datasets');
    expect(list.store.getState()).toEqual({ initialized: false, all: [] });
    list.set([item('a'), item('b'), item('a')]);
    expect(list.store.getState().initialized).toBe(true);
    expect(list.store.getState().all.map((i) => i.id)).toEqual(['a', 'b']);
  });

  it('adds items at the front', () => {
    const list = createListStore<Item>('datasets');
    list.add(item('a'));
    list.add(item('b'));
    expect(list.store.getState().all.map((i) => i.id)).toEqual(['b', 'a']);
  });

  it('adds batches at the front without duplicate ids', () => {
    const list = createListStore<Item>('datasets');
    list.add(item('a'));
    list.addMany([item('b'), item('a'), item('c'), item('b')]);
    expect(list.store.getState().all.map((i) => i.id)).toEqual(['b', 'c', 'a']);
  });

  it('merge-updates by id, keeping nested siblings', () => {
    const list = createListStore<Item>('datasets');
    list.set([item('a'), item('b')]);
    expect(list.update('a', { meta: { privacy: 'public' } as Item['meta'] })).toBe(true);
    expect(list.get('a')?.meta).toEqual({ name: 'a', privacy: 'public' });
    expect(list.get('b')?.meta.privacy).toBe('private');
  });

  it('removes by id', () => {
    const list = createListStore<Item>('datasets');
    list.set([item('a'), item('b')]);
    expect(list.remove('a')).toBe(true);
    expect(list.store.getState().all.map((i) => i.id)).toEqual(['b']);
  });

  it('only writes a log line when the item is missing on update or remove', () => {
    const logger = spyLogger();
    const list = createListStore<Item>('datasets', logger);
    list.set([item('a')]);
    const before = list.store.getState();
    expect(list.update('zz', { meta: { name: 'x', privacy: 'public' } })).toBe(false);
    expect(list.remove('zz')).toBe(false);
    expect(logger.info).toHaveBeenCalledTimes(2);
    expect(list.store.getState()).toBe(before);
  });

  it('resets', () => {
    const list = createListStore<Item>('datasets');
    list.set([item('a')]);
    list.reset();
    expect(list.store.getState()).toEqual({ initialized: false, all: [] });
  });

  it('retries a missing update every 2 s until the item appears', async () => {
    vi.useFakeTimers();
    const list = createListStore<Item>('datasets', spyLogger());
    const done = list.updateWhenPresent('late', { meta: { name: 'late', privacy: 'public' } });
    await vi.advanceTimersByTimeAsync(2000);
    list.add(item('late'));
    await vi.advanceTimersByTimeAsync(2000);
    await expect(done).resolves.toBe(true);
    expect(list.get('late')?.meta.privacy).toBe('public');
  });

  it('models: bulk removal by project and the active project', () => {
    const models = createModelListStore<Item>(spyLogger());
    models.set([item('m1', { project: { id: 'p1' } }), item('m2', { project: { id: 'p2' } }), item('m3', { project: { id: 'p1' } })]);
    expect(models.removeByProject('p1')).toBe(2);
    expect(models.store.getState().all.map((m) => m.id)).toEqual(['m2']);
    models.setActiveProject('p2');
    expect(models.activeProject.getState()).toBe('p2');
  });

  it('sorts the active project models by order when any has one, else by most recent update', () => {
    const byUpdate = sortProjectModels([
      item('old', { dates: { updated: '2026-01-01T00:00:00Z' } }),
      item('new', { dates: { updated: '2026-03-01T00:00:00Z' } }),
    ]);
    expect(byUpdate.map((m) => m.id)).toEqual(['new', 'old']);
    const byOrder = sortProjectModels([item('b', { order: 2 }), item('none'), item('a', { order: 1 })]);
    expect(byOrder.map((m) => m.id)).toEqual(['a', 'b', 'none']);
  });
});
