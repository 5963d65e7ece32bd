import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** The jobs table: queued work claimed with FOR UPDATE SKIP LOCKED by any instance. */
export const jobsRepository = {
  /** Inserts the job unless one with its dedupe key exists; true when inserted. */
  insertIfNew: async (db: Db, row: typeof jobs.$inferInsert) =>
    (await db.insert(jobs).values(row).onConflictDoNothing().returning({ id: jobs.id })).length > 0,
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

  /** Takes the next due job of these queues (or one whose lease ran out) and leases it until `leaseUntil`. */
  claim: (db: Db, queues: string[], now: Date, leaseUntil: Date) =>
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
      const [job] = await tx
        .update(jobs)
        .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: leaseUntil, updatedAt: now })
        .where(eq(jobs.id, id))
        .returning();
      return job ?? null;
    }),
  update: async (db: Db, id: string, patch: Partial<typeof jobs.$inferInsert>) => {
    await db.update(jobs).set(patch).where(eq(jobs.id, id));
  },
};
