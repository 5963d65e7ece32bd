import { describe, expect, it } from 'vitest';
import { ExecutionQueue, runsPerModel } from './execution-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('ExecutionQueue', () => {
  it('runs at most `limit` tasks at once, in arrival order, and survives failures', async () => {
    const queue = new ExecutionQueue(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await tick();
      running--;
      if (i === 3) throw new Error('boom');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => queue.run(task(i))));
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('sizes runs per model from the cores and the intra-op threads', () => {
    expect(runsPerModel(2)).toBe(1);
    expect(runsPerModel(16, 4)).toBe(4);
    expect(runsPerModel(2, 4)).toBe(1);
    expect(() => new ExecutionQueue(0)).toThrow(RangeError);
  });
});
