import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { authThrottle } from '../../platform/db/schema.js';

export type ThrottleRow = typeof authThrottle.$inferSelect;

/** Counters of sign-in failures, mail requests and API-key failures (one row per kind and subject). */
export const throttleRepository = {
  /** Live block of a subject, if any. */
  get: async (db: Db, kind: string, subject: string) =>
    (
      await db
        .select()
        .from(authThrottle)
        .where(sql`${authThrottle.kind} = ${kind} AND ${authThrottle.subject} = ${subject}`)
        .limit(1)
    )[0] ?? null,

  /**
   * Counts one attempt in the subject's fixed window (a new window starts once the last one is
   * over), atomically: the row lock of the upsert orders concurrent attempts. The attempt that goes
   * over `limit` blocks the subject for `blockMs`, doubled per earlier strike (capped at
   * `maxBlockMs`; strikes are forgotten after a day without attempts). Null when the subject was
   * already blocked: nothing is counted then.
   */
  hit: async (
    db: Db,
    input: { kind: string; subject: string; now: Date; windowMs: number; limit: number; blockMs: number; maxBlockMs: number; ip: string | null },
  ) => {
    const { kind, subject, now, windowMs, limit, blockMs, maxBlockMs, ip } = input;
    const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
    const windowOver = sql`${authThrottle.windowStart} <= ${at(now.getTime() - windowMs)}`;
    const count = sql`(CASE WHEN ${windowOver} THEN 0 ELSE ${authThrottle.count} END + 1)`;
    const strikes = sql`(CASE WHEN ${authThrottle.lastAt} <= ${at(now.getTime() - 86_400_000)} THEN 0 ELSE ${authThrottle.strikes} END)`;
    const exceeds = sql`${count} > ${limit}::integer`;
    const rows = await db
      .insert(authThrottle)
      .values({ kind, subject, windowStart: now, count: 1, total: 1, strikes: 0, blockedUntil: null, lastAt: now, lastIp: ip })
      .onConflictDoUpdate({
        target: [authThrottle.kind, authThrottle.subject],
        set: {
          // Going over the limit ends the window: the block takes over, and counting starts afresh with it.
          windowStart: sql`CASE WHEN ${exceeds} OR ${windowOver} THEN ${at(now.getTime())} ELSE ${authThrottle.windowStart} END`,
          count: sql`CASE WHEN ${exceeds} THEN 0 ELSE ${count} END`,
          total: sql`${authThrottle.total} + 1`,
          blockedUntil: sql`CASE WHEN ${exceeds} THEN ${at(now.getTime())} + make_interval(secs => least(${maxBlockMs / 1000}::double precision, ${blockMs / 1000}::double precision * power(2, ${strikes}))) ELSE ${authThrottle.blockedUntil} END`,
          strikes: sql`CASE WHEN ${exceeds} THEN ${strikes} + 1 ELSE ${strikes} END`,
          lastAt: now,
          lastIp: ip,
        },
        setWhere: sql`${authThrottle.blockedUntil} IS NULL OR ${authThrottle.blockedUntil} <= ${at(now.getTime())}`,
      })
      .returning();
    return rows[0] ?? null;
  },

  /** Takes back an attempt that turned out legitimate (the right password). */
  undo: async (db: Db, kind: string, subject: string, now: Date) => {
    await db
      .update(authThrottle)
      .set({ count: sql`greatest(${authThrottle.count} - 1, 0)`, total: sql`greatest(${authThrottle.total} - 1, 0)` })
      .where(
        sql`${authThrottle.kind} = ${kind} AND ${authThrottle.subject} = ${subject} AND (${authThrottle.blockedUntil} IS NULL OR ${authThrottle.blockedUntil} <= ${now.toISOString()}::timestamptz)`,
      );
  },

  /** Subjects with recorded events, most recent first (the admins' view). */
  recent: (db: Db, limit: number) => db.select().from(authThrottle).orderBy(desc(authThrottle.lastAt)).limit(limit),
};
