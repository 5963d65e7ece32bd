import { availableParallelism } from 'node:os';

/**
 * Runs `work` over the items of an (async) iterable with at most `size` calls in flight, pulling the
 * next item only when a slot frees (back-pressure on a sequential reader). The first failure stops new
 * work and is rethrown once the calls in flight settle; so is an abort of `signal`. A count and one
 * waiter, not a set of promises raced per item: an item costs its call's promise and one reaction
 * (ADR 0042, processing's pass calls it for every image).
 */
export async function forEachPooled<T>(
  items: AsyncIterable<T> | Iterable<T>,
  size: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let inFlight = 0;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const settled = () => {
    inFlight--;
    const waiter = wake;
    wake = null;
    waiter?.();
  };
  const failed = (error: unknown) => {
    failure ??= { error };
    settled();
  };
  const slotFrees = () => new Promise<void>((resolve) => (wake = resolve));
  for await (const item of items) {
    if (signal?.aborted) failure ??= { error: signal.reason };
    if (failure !== null) break;
    inFlight++;
    work(item).then(settled, failed);
    if (inFlight >= size) await slotFrees();
  }
  while (inFlight > 0) await slotFrees();
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/**
 * Image calls in flight: one per core. sharp runs each call on libuv's thread pool with one libvips
 * thread (`sharp.concurrency()` is 1 on glibc without jemalloc), so calls in flight are the workers.
 */
export const machineParallelism = () => Math.max(2, availableParallelism());
