import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { jobs } from '../db/schema.js';
import { newId } from '../ids.js';

export type JobRow = typeof jobs.$inferSelect;
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
    const inserted = await this.ctx.db
      .insert(jobs)
      .values({ id, queue, payload, dedupeKey: opts.dedupeKey ?? null, runAt: opts.runAt ?? this.ctx.clock.now(), maxAttempts: opts.maxAttempts ?? 3 })
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    if (opts.dedupeKey && inserted.length === 0) {
      // Same work already queued: re-arm it if it had finished or failed, so a retry runs again.
      const [row] = await this.ctx.db
        .update(jobs)
        .set({ status: 'queued', attempts: 0, lastError: null, runAt: this.ctx.clock.now(), payload, updatedAt: this.ctx.clock.now() })
        .where(and(eq(jobs.dedupeKey, opts.dedupeKey), sql`${jobs.status} IN ('done', 'failed')`))
        .returning({ id: jobs.id });
      const existing = row ?? (await this.ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, opts.dedupeKey)))[0];
      await this.wake();
      return existing!.id;
    }
    await this.wake();
    return id;
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
    return this.ctx.db.transaction(async (tx) => {
      const rows = await tx.execute(sql`
        SELECT id FROM jobs
        WHERE queue IN (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
          AND ((status = 'queued' AND run_at <= ${now}) OR (status = 'running' AND locked_until < ${now}))
        ORDER BY run_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED`);
      const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
      if (!id) return null;
      const [job] = await tx
        .update(jobs)
        .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: new Date(now.getTime() + LEASE_MS), updatedAt: now })
        .where(eq(jobs.id, id))
        .returning();
      return job ?? null;
    });
  }

  private async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    const handler = this.handlers.get(job.queue)!;
    try {
      await handler(job, {
        progress: async (p) => {
          await this.ctx.db.update(jobs).set({ progress: p, lockedUntil: new Date(this.ctx.clock.now().getTime() + LEASE_MS), updatedAt: this.ctx.clock.now() }).where(eq(jobs.id, job.id));
        },
      });
      await this.ctx.db.update(jobs).set({ status: 'done', lockedUntil: null, updatedAt: this.ctx.clock.now() }).where(eq(jobs.id, job.id));
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      const final = job.attempts >= job.maxAttempts;
      const backoff = Math.min(60_000, 1000 * 2 ** job.attempts);
      this.ctx.log.warn({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: message }, final ? 'job failed for good' : 'job failed, will retry');
      await this.ctx.db
        .update(jobs)
        .set({
          status: final ? 'failed' : 'queued',
          lastError: message.slice(0, 2000),
          lockedUntil: null,
          runAt: new Date(this.ctx.clock.now().getTime() + backoff),
          updatedAt: this.ctx.clock.now(),
        })
        .where(eq(jobs.id, job.id));
    }
    return true;
  }
}
