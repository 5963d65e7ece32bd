import type { AppContext } from '../../context.js';
import { newId } from '../ids.js';

import { jobsRepository, type JobRow } from './jobs.repository.js';

export type { JobRow };
export interface JobHelpers {
  /** Records progress (shown on /active-jobs) without finishing the job. */
  progress(p: Record<string, unknown>): Promise<void>;
}
export type JobHandler = (job: JobRow, helpers: JobHelpers) => Promise<void>;

const LEASE_MS = 5 * 60_000;
const WAKE_CHANNEL = 'sightline_jobs';

/**
 * Jobs live in PostgreSQL and are claimed with FOR UPDATE SKIP LOCKED, so any instance can run
 * them and a crash only delays a job until its lease runs out. Handlers must be idempotent: a job
 * whose process died is run again.
 */
export class JobQueue {
  private handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopped = true;
  private unlisten: (() => Promise<void>) | null = null;
  private idle: Array<() => void> = [];

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'database' | 'clock' | 'log'>,
    private readonly opts: { concurrency?: number; pollMs?: number } = {},
  ) {}

  register(queue: string, handler: JobHandler) {
    this.handlers.set(queue, handler);
  }

  async enqueue(queue: string, payload: Record<string, unknown>, opts: { dedupeKey?: string; runAt?: Date; maxAttempts?: number } = {}) {
    const id = newId();
    const now = this.ctx.clock.now();
    const inserted = await jobsRepository.insertIfNew(this.ctx.db, { id, queue, payload, dedupeKey: opts.dedupeKey ?? null, runAt: opts.runAt ?? now, maxAttempts: opts.maxAttempts ?? 3 });
    if (opts.dedupeKey && !inserted) {
      // Same work already queued: re-arm it if it had finished or failed, so a retry runs again.
      const existing = (await jobsRepository.rearm(this.ctx.db, opts.dedupeKey, payload, now)) ?? (await jobsRepository.idByDedupeKey(this.ctx.db, opts.dedupeKey));
      await this.wake();
      return existing!;
    }
    await this.wake();
    return id;
  }

  /** Jobs by their dedupe keys (progress and attempts shown to users). */
  async byDedupeKeys(keys: string[]): Promise<JobRow[]> {
    return jobsRepository.byDedupeKeys(this.ctx.db, keys);
  }

  async start() {
    this.stopped = false;
    this.unlisten = await this.ctx.database.listen(WAKE_CHANNEL, () => void this.tick());
    this.schedule();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unlisten?.();
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Runs due jobs until none is left (tests, and the poll loop). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOne()) n += 1;
    return n;
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick().finally(() => this.schedule()), this.opts.pollMs ?? 1000);
    this.timer.unref();
  }

  private async wake() {
    if (!this.stopped) await this.ctx.database.notify(WAKE_CHANNEL, '');
  }

  private async tick() {
    const max = this.opts.concurrency ?? 2;
    while (!this.stopped && this.running < max) {
      this.running += 1;
      let ran = false;
      try {
        ran = await this.runOne();
      } catch (err) {
        this.ctx.log.error({ err }, 'job loop error');
      } finally {
        this.running -= 1;
        if (this.running === 0) this.idle.splice(0).forEach((r) => r());
      }
      if (!ran) break;
    }
  }

  private async claim(): Promise<JobRow | null> {
    const now = this.ctx.clock.now();
    const queues = [...this.handlers.keys()];
    if (queues.length === 0) return null;
    return jobsRepository.claim(this.ctx.db, queues, now, new Date(now.getTime() + LEASE_MS));
  }

  private async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    const handler = this.handlers.get(job.queue)!;
    try {
      await handler(job, {
        progress: async (p) => {
          await jobsRepository.update(this.ctx.db, job.id, { progress: p, lockedUntil: new Date(this.ctx.clock.now().getTime() + LEASE_MS), updatedAt: this.ctx.clock.now() });
        },
      });
      await jobsRepository.update(this.ctx.db, job.id, { status: 'done', lockedUntil: null, updatedAt: this.ctx.clock.now() });
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      const final = job.attempts >= job.maxAttempts;
      const backoff = Math.min(60_000, 1000 * 2 ** job.attempts);
      this.ctx.log.warn({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: message }, final ? 'job failed for good' : 'job failed, will retry');
      await jobsRepository.update(this.ctx.db, job.id, {
        status: final ? 'failed' : 'queued',
        lastError: message.slice(0, 2000),
        lockedUntil: null,
        runAt: new Date(this.ctx.clock.now().getTime() + backoff),
        updatedAt: this.ctx.clock.now(),
      });
    }
    return true;
  }
}
