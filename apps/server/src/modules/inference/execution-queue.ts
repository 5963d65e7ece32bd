/**
 * A per-model execution queue: at most `limit` `session.run` calls of one model at once, the rest wait
 * in arrival order. One onnxruntime run already spreads over every intra-op thread (the physical
 * cores), so two runs at once only fight over the same cores: on a 2-core machine, concurrency 4
 * without the queue had half the throughput of concurrency 1. Decoding and preprocessing stay outside
 * the queue, so the next request is ready when the current run ends.
 */
export class ExecutionQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('The execution limit must be a positive integer');
  }

  /** Runs `task` when a slot is free; the slot passes straight to the next waiter when it ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Calls running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }
}

/**
 * Runs one model can usefully execute at once: the cores divided by the intra-op threads of one run
 * (onnxruntime's default is every physical core, hence 1).
 */
export function runsPerModel(cores: number, intraOpThreads?: number): number {
  if (!intraOpThreads) return 1;
  return Math.max(1, Math.floor(cores / intraOpThreads));
}
