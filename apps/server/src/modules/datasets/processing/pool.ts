import { availableParallelism } from 'node:os';

/**
 * Runs `work` over the items of an (async) iterable with at most `size` calls in flight, pulling the
 * next item only when a slot frees (back-pressure on a sequential reader). The first failure stops new
 * work and is rethrown once the calls in flight settle; so is an abort of `signal`.
 */
export async function forEachPooled<T>(
  items: AsyncIterable<T> | Iterable<T>,
  size: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  for await (const item of items) {
    if (signal?.aborted) failure ??= { error: signal.reason };
    if (failure !== null) break;
    const run: Promise<void> = work(item)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
    if (inFlight.size >= size) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/**
 * Image calls in flight: one per core. sharp runs each call on libuv's thread pool with one libvips
 * thread (`sharp.concurrency()` is 1 on glibc without jemalloc), so calls in flight are the workers.
 */
export const machineParallelism = () => Math.max(2, availableParallelism());
