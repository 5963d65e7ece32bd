import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { storableText } from '../db/storable.js';
import { newId } from '../ids.js';

import type { Database, Db } from '../db/client.js';
import { jobsRepository, type JobRow } from './jobs.repository.js';

export type { JobRow };
export interface JobHelpers {
  /** Records progress (shown on /active-jobs) without finishing the job; throws LeaseLostError once the lease is lost. */
  progress(p: Record<string, unknown>): Promise<void>;
  /**
   * Writes the job's results in one transaction that first checks this attempt still holds the job
   * (ADR 0025): after another instance took it over, the write is refused (LeaseLostError) and logged.
   */
  fenced<T>(write: (tx: Db) => Promise<T>): Promise<T>;
  /** Aborted when the lease is found lost (a heartbeat or a write refused): stop working. */
  signal: AbortSignal;
}
/** What the queue needs of the app (a part of AppContext; platform names no app type, so no cycle). */
export interface JobQueueDeps {
  db: Db;
  database: Database;
  clock: { now(): Date };
  log: FastifyBaseLogger;
  config?: { jobLeaseMs?: number };
}
export type JobHandler = (job: JobRow, helpers: JobHelpers) => Promise<void>;
export interface JobQueueOptions {
  /**
   * Called once when a job of this queue ends for good in `failed` (its last attempt threw, its error
   * was permanent, or its holder died on the last attempt), with the stored (sanitized) error, so the
   * module can put its own row in a terminal state. Its own failure is logged, never retried.
   */
  onFailed?: (job: JobRow, error: string) => Promise<void>;
}

/**
 * Thrown (or wrapped) by a handler when running the job again cannot help: the input is at fault
 * (a hostile archive, a yaml bomb). The job fails at once, whatever attempts are left.
 */
export class PermanentJobError extends Error {
  readonly permanent = true;
}
const isPermanent = (err: unknown) => (err as { permanent?: unknown } | null)?.permanent === true;

/**
 * Thrown when a write of a job's holder is refused because another instance holds the job now (this
 * one stalled past its lease, or was thought dead): the attempt stops and writes nothing more.
 */
export class LeaseLostError extends Error {
  readonly leaseLost = true;
  constructor(readonly jobId: string) {
    super(`The lease on job ${jobId} was lost: another instance runs it now`);
    this.name = 'LeaseLostError';
  }
}
export const isLeaseLost = (err: unknown): err is LeaseLostError => (err as { leaseLost?: unknown } | null)?.leaseLost === true;

/** Short lease (JOB_LEASE_SECONDS), renewed by a heartbeat every third of it while the handler runs. */
const LEASE_MS = 30_000;
const WAKE_CHANNEL = 'sightline_jobs';
const HOST = os.hostname();
/** Queue instances alive in this process (a lease naming this pid and another instance is an orphan). */
const LIVE_INSTANCES = new Set<string>();

/** Whether the process `pid` on this host still exists (EPERM: it exists, owned by another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Jobs live in PostgreSQL and are claimed with FOR UPDATE SKIP LOCKED, so any instance can run
 * them. A lease names its holder (`host:pid:instance`) and lasts JOB_LEASE_SECONDS (30 s), renewed every third of it while the
 * handler runs: a job whose holder died is taken again when the lease runs out, or at once by an
 * instance starting on the same host that sees the holder's process is gone (ADR 0013). Each claim
 * writes a fresh lease token that every write of the attempt names (progress, completion, failure, the
 * results through `helpers.fenced`), so an attempt that lost its lease writes nothing (ADR 0025). Handlers must
 * be idempotent: a job whose process died is run again. No job outlives its attempt limit: a job
 * claimed past it fails for good, and every failure is stored sanitized (see `storableText`).
 */
export class JobQueue {
  /** Writes refused because their attempt had lost its lease (logged each time; the scale-out suite reads the log). */
  refusedWrites = 0;
  private handlers = new Map<string, JobHandler>();
  private queueOptions = new Map<string, JobQueueOptions>();
  private readonly instance = newId();
  /** The lease holder written on claimed jobs. */
  readonly holder = `${HOST}:${process.pid}:${this.instance}`;
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopped = true;
  private unlisten: (() => Promise<void>) | null = null;
  private idle: Array<() => void> = [];

  constructor(
    private readonly ctx: JobQueueDeps,
    private readonly opts: { concurrency?: number; pollMs?: number; leaseMs?: number; heartbeatMs?: number } = {},
  ) {
    LIVE_INSTANCES.add(this.instance);
  }

  register(queue: string, handler: JobHandler, options: JobQueueOptions = {}) {
    this.handlers.set(queue, handler);
    this.queueOptions.set(queue, options);
  }

  async enqueue(queue: string, payload: Record<string, unknown>, opts: { dedupeKey?: string; runAt?: Date; maxAttempts?: number } = {}) {
    const id = newId();
    const now = this.ctx.clock.now();
    const inserted = await jobsRepository.insertIfNew(this.ctx.db, {
      id,
      queue,
      payload,
      dedupeKey: opts.dedupeKey ?? null,
      runAt: opts.runAt ?? now,
      maxAttempts: opts.maxAttempts ?? 3,
    });
    if (opts.dedupeKey && !inserted) {
      // Same work already queued: re-arm it if it had finished or failed, so a retry runs again.
      const existing =
        (await jobsRepository.rearm(this.ctx.db, opts.dedupeKey, payload, now)) ?? (await jobsRepository.idByDedupeKey(this.ctx.db, opts.dedupeKey));
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
    await this.reclaimOrphans().catch((err) => this.ctx.log.warn({ err }, 'could not reclaim orphaned jobs'));
    this.unlisten = await this.ctx.database.listen(WAKE_CHANNEL, () => void this.tick());
    this.schedule();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unlisten?.();
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    LIVE_INSTANCES.delete(this.instance);
  }

  /**
   * Ends the leases of running jobs whose holder on this host is gone (its process no longer exists,
   * or it is this process under an instance that was closed), so they run again right away instead of
   * after the lease. Holders on other hosts are left to their lease. Returns how many were freed.
   */
  async reclaimOrphans(): Promise<number> {
    let freed = 0;
    for (const row of await jobsRepository.runningOnHost(this.ctx.db, `${HOST}:`)) {
      const [, pidText, instance] = row.locked_by.slice(HOST.length).split(':');
      const pid = Number(pidText);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      const gone = pid === process.pid ? !LIVE_INSTANCES.has(instance ?? '') : !pidAlive(pid);
      if (!gone) continue;
      await jobsRepository.expireLease(this.ctx.db, row.id, row.locked_by, new Date(this.ctx.clock.now().getTime() - 1));
      this.ctx.log.info({ jobId: row.id, holder: row.locked_by }, 'job of a stopped instance taken back');
      freed += 1;
    }
    return freed;
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
    return jobsRepository.claim(this.ctx.db, queues, now, this.leaseEnd(), this.holder, newId());
  }

  private get leaseMs() {
    return this.opts.leaseMs ?? this.ctx.config?.jobLeaseMs ?? LEASE_MS;
  }

  private leaseEnd() {
    return new Date(this.ctx.clock.now().getTime() + this.leaseMs);
  }

  /** A write of an attempt that lost its lease: refused, counted and logged. */
  private refused(job: JobRow, write: string): LeaseLostError {
    this.refusedWrites += 1;
    this.ctx.log.warn(
      { jobId: job.id, queue: job.queue, attempt: job.attempts, holder: this.holder, write },
      'job write refused: the lease was lost to another instance',
    );
    return new LeaseLostError(job.id);
  }

  private async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    if (job.attempts > job.maxAttempts) {
      // Claimed again after its holder died on the last attempt: it is over, whatever killed it.
      const last = job.lastError ? ` Last error: ${job.lastError}` : '';
      await this.failForGood(job, `Stopped after ${job.maxAttempts} attempts: the process running it stopped before it finished.${last}`);
      return true;
    }
    const handler = this.handlers.get(job.queue)!;
    const token = job.leaseToken!;
    const lost = new AbortController();
    const lose = (write: string) => {
      const err = this.refused(job, write);
      lost.abort(err);
      return err;
    };
    const heartbeat = setInterval(
      () => {
        void jobsRepository
          .renewLease(this.ctx.db, job.id, token, this.leaseEnd())
          .then((held) => {
            if (!held && !lost.signal.aborted) lose('heartbeat');
          })
          .catch((err) => this.ctx.log.warn({ err, jobId: job.id }, 'job heartbeat failed'));
      },
      this.opts.heartbeatMs ?? Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      await handler(job, {
        progress: async (p) => {
          if (!(await jobsRepository.fencedUpdate(this.ctx.db, job.id, token, { progress: p, lockedUntil: this.leaseEnd(), updatedAt: this.ctx.clock.now() })))
            throw lose('progress');
        },
        fenced: (write) =>
          this.ctx.db.transaction(async (tx) => {
            if (!(await jobsRepository.holdsLease(tx, job.id, token, this.leaseMs))) throw lose('results');
            return write(tx);
          }),
        signal: lost.signal,
      });
      clearInterval(heartbeat);
      if (!(await jobsRepository.fencedUpdate(this.ctx.db, job.id, token, { status: 'done', lockedUntil: null, updatedAt: this.ctx.clock.now() })))
        lose('done');
    } catch (err) {
      clearInterval(heartbeat);
      // Another instance runs the job now: this attempt records nothing (its failure, retry or end).
      if (isLeaseLost(err) || lost.signal.aborted) {
        if (!isLeaseLost(err)) this.ctx.log.warn({ jobId: job.id, err: errorText(err) }, 'job attempt ended after its lease was lost');
        return true;
      }
      const message = storableText(errorText(err));
      if (job.attempts >= job.maxAttempts || isPermanent(err)) {
        await this.failForGood(job, message);
        return true;
      }
      const backoff = Math.min(60_000, 1000 * 2 ** job.attempts);
      this.ctx.log.warn({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: message }, 'job failed, will retry');
      try {
        const patch = {
          status: 'queued',
          lastError: message,
          lockedUntil: null,
          runAt: new Date(this.ctx.clock.now().getTime() + backoff),
          updatedAt: this.ctx.clock.now(),
        };
        if (!(await jobsRepository.fencedUpdate(this.ctx.db, job.id, token, patch))) lose('retry');
      } catch (updateErr) {
        // The lease then runs out and the job is claimed again, counting this attempt.
        this.ctx.log.error({ err: updateErr, jobId: job.id }, 'could not record a job failure');
      }
    }
    return true;
  }

  /** The terminal state of a failed job, then the queue's `onFailed`; neither failure escapes. */
  private async failForGood(job: JobRow, message: string) {
    const error = storableText(message);
    this.ctx.log.warn({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: error }, 'job failed for good');
    try {
      if (
        !(await jobsRepository.fencedUpdate(this.ctx.db, job.id, job.leaseToken!, {
          status: 'failed',
          lastError: error,
          lockedUntil: null,
          updatedAt: this.ctx.clock.now(),
        }))
      ) {
        this.refused(job, 'failed');
        return;
      }
    } catch (err) {
      this.ctx.log.error({ err, jobId: job.id }, 'could not record a job failure');
      return;
    }
    try {
      await this.queueOptions.get(job.queue)?.onFailed?.({ ...job, status: 'failed', lastError: error }, error);
    } catch (err) {
      this.ctx.log.error({ err, jobId: job.id, queue: job.queue }, 'job failure handler failed');
    }
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
