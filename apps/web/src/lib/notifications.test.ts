import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotificationStore, timeoutFor } from './notifications';

describe('notification timeouts (spec §9)', () => {
  it('chooses 4000 ms, 6000 ms with an action, 10000 ms pending, or its own msTimeout', () => {
    expect(timeoutFor({ type: 'success' })).toBe(4000);
    expect(timeoutFor({ type: 'error', link: { text: 'Open', path: '/models/x' } })).toBe(6000);
    expect(timeoutFor({ type: 'success', callback: { text: 'Undo', func: () => undefined } })).toBe(6000);
    expect(timeoutFor({ type: 'pending' })).toBe(10000);
    expect(timeoutFor({ type: 'success', msTimeout: 1234 })).toBe(1234);
  });
});

describe('notification store', () => {
  let n: ReturnType<typeof createNotificationStore>;
  beforeEach(() => {
    vi.useFakeTimers();
    n = createNotificationStore({ persist: false });
  });
  afterEach(() => {
    n.reset();
    vi.useRealTimers();
  });
  const active = () => n.store.getState().active;

  it('dismisses a plain notification after 4000 ms', () => {
    n.success('Saved');
    vi.advanceTimersByTime(3900);
    expect(active()).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(active()).toHaveLength(0);
  });

  it('keeps a notification with a link for 6000 ms and a pending one for 10000 ms', () => {
    n.success('Model Updated', { link: { text: 'Open', path: '/models/1' } });
    n.pending('Checking available storage');
    vi.advanceTimersByTime(5900);
    expect(active()).toHaveLength(2);
    vi.advanceTimersByTime(100);
    expect(active().map((x) => x.type)).toEqual(['pending']);
    vi.advanceTimersByTime(4000);
    expect(active()).toHaveLength(0);
  });

  it('counts the time left down in 100 ms steps for the progress bar', () => {
    const id = n.success('Saved');
    vi.advanceTimersByTime(100);
    expect(active().find((x) => x.id === id)?.remaining).toBe(3900);
    vi.advanceTimersByTime(1000);
    expect(active()[0].remaining).toBe(2900);
  });

  it('pauses while hovered and resumes where it stopped', () => {
    const id = n.error('Unable to Update User');
    vi.advanceTimersByTime(1000);
    n.pause(id);
    vi.advanceTimersByTime(60_000);
    expect(active()[0].remaining).toBe(3000);
    n.resume(id);
    vi.advanceTimersByTime(2900);
    expect(active()).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(active()).toHaveLength(0);
  });

  it('never dismisses a permanent notification by itself', () => {
    const id = n.notify({ type: 'error', message: 'Files still uploading', permanent: true });
    vi.advanceTimersByTime(120_000);
    expect(active()).toHaveLength(1);
    n.dismiss(id);
    expect(active()).toHaveLength(0);
  });

  it('honours its own msTimeout', () => {
    n.notify({ type: 'success', message: 'Quick', msTimeout: 500 });
    vi.advanceTimersByTime(400);
    expect(active()).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(active()).toHaveLength(0);
  });

  it('defaults close to true and keeps close=false', () => {
    n.success('a');
    n.notify({ type: 'success', message: 'b', close: false });
    expect(active().map((x) => x.close)).toEqual([true, false]);
  });

  it('action: dismisses and navigates for a path, opens a tab for an href, or runs the callback', () => {
    const navigate = vi.fn();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const func = vi.fn();
    const a = n.success('Model Updated', { link: { text: 'Open', path: '/models/1' } });
    const b = n.success('Docs', { link: { text: 'Read', href: 'https://docs.example.com' } });
    const c = n.success('Deleted', { callback: { text: 'Undo', func, args: ['id1'] } });
    n.act(a, navigate);
    n.act(b, navigate);
    n.act(c, navigate);
    expect(navigate).toHaveBeenCalledWith('/models/1');
    expect(open).toHaveBeenCalledWith('https://docs.example.com', '_blank', 'noopener,noreferrer');
    expect(func).toHaveBeenCalledWith('id1');
    expect(active()).toHaveLength(0);
    open.mockRestore();
  });

  it('keeps past notifications, newest first, and replaces by id', () => {
    n.success('first');
    n.pending('working', { id: 'job' });
    n.success('done', { id: 'job' });
    expect(n.store.getState().history.map((h) => h.message)).toEqual(['done', 'first']);
    expect(active().map((x) => x.message)).toEqual(['first', 'done']);
  });
});
