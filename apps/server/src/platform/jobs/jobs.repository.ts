import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** The jobs table: queued work claimed with FOR UPDATE SKIP LOCKED by any instance. */
export const jobsRepository = {
  /** Inserts the job unless one with its dedupe key exists; true when inserted. */
  insertIfNew: async (db: Db, row: typeof jobs.$inferInsert) => (await db.insert(jobs).values(row).onConflictDoNothing().returning({ id: jobs.id })).length > 0,
  /** Re-arms a finished or failed job with this dedupe key; its id, or null when it is still pending. */
  rearm: async (db: Db, dedupeKey: string, payload: Record<string, unknown>, now: Date) =>
    (
      await db
        .update(jobs)
        .set({ status: 'queued', attempts: 0, lastError: null, runAt: now, payload, updatedAt: now })
        .where(and(eq(jobs.dedupeKey, dedupeKey), sql`${jobs.status} IN ('done', 'failed')`))
        .returning({ id: jobs.id })
    )[0]?.id ?? null,
  idByDedupeKey: async (db: Db, dedupeKey: string) => (await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, dedupeKey)))[0]?.id ?? null,
  byDedupeKeys: async (db: Db, keys: string[]): Promise<JobRow[]> => (keys.length ? db.select().from(jobs).where(inArray(jobs.dedupeKey, keys)) : []),

  /** Takes the next due job of these queues (or one whose lease ran out) and leases it to `holder` until `leaseUntil`. */
  claim: (db: Db, queues: string[], now: Date, leaseUntil: Date, holder: string, leaseToken: string) =>
    db.transaction(async (tx) => {
      const rows = await tx.execute(sql`
        SELECT id FROM jobs
        WHERE queue IN (${sql.join(
          queues.map((q) => sql`${q}`),
          sql`, `,
        )})
          AND ((status = 'queued' AND run_at <= ${now}) OR (status = 'running' AND locked_until < ${now}))
        ORDER BY run_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED`);
      const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
      if (!id) return null;
      // locked_by is outside the drizzle schema (migration 0013): set with SQL beside the update.
      await tx.execute(sql`UPDATE jobs SET locked_by = ${holder} WHERE id = ${id}`);
      const [job] = await tx
        .update(jobs)
        .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: leaseUntil, leaseToken, updatedAt: now })
        .where(eq(jobs.id, id))
        .returning();
      return job ?? null;
    }),
  /** Extends the lease of a job still held under `leaseToken`; false when it is no longer (taken back, finished). */
  renewLease: async (db: Db, id: string, leaseToken: string, leaseUntil: Date) =>
    (
      await db
        .update(jobs)
        .set({ lockedUntil: leaseUntil })
        .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.leaseToken, leaseToken)))
        .returning({ id: jobs.id })
    ).length > 0,
  /**
   * Writes `patch` only while the job is still running under `leaseToken` (ADR 0025): the check is in the
   * statement that writes, so a holder that lost its lease (stalled past it, taken back) cannot finish,
   * fail or report progress on a job another instance now runs. False when refused.
   */
  fencedUpdate: async (db: Db, id: string, leaseToken: string, patch: Partial<typeof jobs.$inferInsert>) =>
    (
      await db
        .update(jobs)
        .set(patch)
        .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.leaseToken, leaseToken)))
        .returning({ id: jobs.id })
    ).length > 0,
  /**
   * Inside the transaction that writes a job's results: true while the job is still running under
   * `leaseToken`, and the row stays share-locked until commit, so no other instance can take the job
   * over (its claim skips locked rows) between this check and the results' commit.
   */
  holdsLease: async (db: Db, id: string, leaseToken: string, leaseMs: number) => {
    // A holder stalled inside this transaction must not keep the row locked past its lease (the
    // takeover's claim skips locked rows): PostgreSQL ends the transaction after that long idle.
    await db.execute(sql.raw(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1000, Math.ceil(leaseMs))}`));
    const res = await db.execute(sql`SELECT id FROM jobs WHERE id = ${id} AND status = 'running' AND lease_token = ${leaseToken} FOR SHARE`);
    return (res as unknown as { rows: unknown[] }).rows.length > 0;
  },
  /** Running jobs whose holder names this host (`host:` prefix), with that holder. */
  runningOnHost: async (db: Db, hostPrefix: string) => {
    const res = await db.execute(
      sql`SELECT id, locked_by FROM jobs WHERE status = 'running' AND locked_by LIKE ${`${hostPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
    );
    return (res as unknown as { rows: Array<{ id: string; locked_by: string }> }).rows;
  },
  /** Ends the lease of jobs whose holder is gone, so that the next claim takes them (attempt limits apply). */
  expireLease: async (db: Db, id: string, holder: string, at: Date) => {
    await db.execute(sql`UPDATE jobs SET locked_until = ${at} WHERE id = ${id} AND status = 'running' AND locked_by = ${holder}`);
  },
  update: async (db: Db, id: string, patch: Partial<typeof jobs.$inferInsert>) => {
    await db.update(jobs).set(patch).where(eq(jobs.id, id));
  },
};
