import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { AdminUserSort } from '@sightline/contracts';
import type { Db } from '../../platform/db/client.js';
import { agentJobs, apiKeys, datasets, inferenceUsage, jobs, mailOutbox, models, projects, sessions, teamMembers, users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type QueueJobRow = typeof jobs.$inferSelect;
export type AgentJobRow = typeof agentJobs.$inferSelect;

/**
 * Sort expressions of the admin user lists, on the table or alias `t`; each has an index (migration
 * 0015, or the unique keys).
 */
const SORTS: Record<AdminUserSort, (t: string) => SQL> = {
  created: (t) => sql.raw(`${t}.created_at`),
  email: (t) => sql.raw(`${t}.email`),
  username: (t) => sql.raw(`${t}.username`),
  lastLogin: (t) => sql.raw(`coalesce(${t}.last_login_at, 'epoch'::timestamptz)`),
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface Usage {
  count: number;
  trashed: number;
  bytes: number;
  trashedBytes: number;
}

/** Where a page of the admin's job list starts: after this job (of either source) in (updated_at, id) order. */
export interface JobsAfter {
  source: 'queue' | 'agent';
  id: string;
}
/** The cursor job's (updated_at, id), read by the database at its own precision. */
const cursorRow = (after: JobsAfter) =>
  after.source === 'queue'
    ? sql`(select c.updated_at, c.id from jobs c where c.id = ${after.id})`
    : sql`(select c.updated_at, c.id from agent_jobs c where c.id = ${after.id})`;
/** A timestamp as sortable text to the microsecond (UTC). */
const microsKey = (column: SQL.Aliased | typeof jobs.updatedAt | typeof agentJobs.updatedAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`;

export const adminRepository = {
  /**
   * Outbox mails newest first, after the mail `afterId` in (created_at, id) order (index of migration
   * 0035). The cursor's mail is compared in the database, so timestamps keep their microseconds; a
   * cursor whose mail is gone ends the list.
   */
  mailsPage: (db: Db, afterId: string | null, limit: number) =>
    db
      .select()
      .from(mailOutbox)
      .where(
        afterId === null
          ? undefined
          : sql`(${mailOutbox.createdAt}, ${mailOutbox.id}) < (select m.created_at, m.id from mail_outbox m where m.id = ${afterId})`,
      )
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit),

  /**
   * One keyset page of users: prefix search on lower(email|username|first_name) (one index each,
   * OR-ed by a bitmap scan), ordered by the sort then id. `afterId` is the previous page's last user:
   * the database reads that row's sort value itself (ADR 0042), so times keep their microseconds; a
   * cursor whose user is gone ends the list.
   */
  searchUsers: async (db: Db, opts: { q?: string; sort: AdminUserSort; dir: 'asc' | 'desc'; afterId: string | null; limit: number }) => {
    const sortOf = SORTS[opts.sort];
    const where: SQL[] = [];
    const q = opts.q?.trim().toLowerCase();
    if (q) {
      const p = `${escapeLike(q)}%`;
      where.push(
        sql`(lower(${users.email}) LIKE ${p} OR lower(${users.username}) LIKE ${p} OR lower(${users.firstName}) LIKE ${p} OR ${users.id} = ${opts.q!.trim()})`,
      );
    }
    if (opts.afterId !== null) {
      const cursorRow = sql`(select ${sortOf('c')}, c.id from users c where c.id = ${opts.afterId})`;
      where.push(sql`(${sortOf('users')}, ${users.id}) ${sql.raw(opts.dir === 'asc' ? '>' : '<')} ${cursorRow}`);
    }
    const dir = sql.raw(opts.dir === 'asc' ? 'ASC' : 'DESC');
    return db
      .select()
      .from(users)
      .where(where.length ? and(...where) : undefined)
      .orderBy(sql`${sortOf('users')} ${dir}`, sql`${users.id} ${dir}`)
      .limit(opts.limit);
  },
  userById: async (db: Db, id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0] ?? null,
  updateUser: async (db: Db, id: string, patch: Partial<typeof users.$inferInsert>) =>
    (await db.update(users).set(patch).where(eq(users.id, id)).returning())[0] ?? null,
  /** Active admins other than `exceptId`, locked so two concurrent revocations cannot both pass the last-admin check. */
  otherAdmins: async (db: Db, exceptId: string) =>
    (await db.execute(
      sql`SELECT id FROM users WHERE 'admin' = ANY(roles) AND deleted_at IS NULL AND disabled_at IS NULL AND id <> ${exceptId} FOR UPDATE`,
    )) as unknown as { rows: unknown[] },
  lockAdmins: async (db: Db) => {
    await db.execute(sql`SELECT pg_advisory_xact_lock(4243)`);
  },

  /** Items and bytes per collection, trash (soft-deleted) counted apart. */
  usage: async (db: Db, userId: string) => {
    const one = async (table: typeof datasets | typeof models, bytes: SQL) => {
      const r = (
        await db
          .select({
            count: sql<number>`count(*) FILTER (WHERE ${table.deletedAt} IS NULL)`,
            trashed: sql<number>`count(*) FILTER (WHERE ${table.deletedAt} IS NOT NULL)`,
            bytes: sql<number>`coalesce(sum(${bytes}) FILTER (WHERE ${table.deletedAt} IS NULL), 0)`,
            trashedBytes: sql<number>`coalesce(sum(${bytes}) FILTER (WHERE ${table.deletedAt} IS NOT NULL), 0)`,
          })
          .from(table)
          .where(eq(table.userId, userId))
      )[0]!;
      return { count: Number(r.count), trashed: Number(r.trashed), bytes: Number(r.bytes), trashedBytes: Number(r.trashedBytes) } satisfies Usage;
    };
    const projectUsage = async (): Promise<Usage> => {
      const r = (
        await db
          .select({
            count: sql<number>`count(*) FILTER (WHERE ${projects.deletedAt} IS NULL)`,
            trashed: sql<number>`count(*) FILTER (WHERE ${projects.deletedAt} IS NOT NULL)`,
            bytes: sql<number>`coalesce(sum(${projects.imageBytes}) FILTER (WHERE ${projects.deletedAt} IS NULL), 0)`,
            trashedBytes: sql<number>`coalesce(sum(${projects.imageBytes}) FILTER (WHERE ${projects.deletedAt} IS NOT NULL), 0)`,
          })
          .from(projects)
          .where(eq(projects.userId, userId))
      )[0]!;
      return { count: Number(r.count), trashed: Number(r.trashed), bytes: Number(r.bytes), trashedBytes: Number(r.trashedBytes) };
    };
    return { datasets: await one(datasets, sql`${datasets.bytes}`), models: await one(models, sql`${models.bytes}`), projects: await projectUsage() };
  },
  counts: async (db: Db, userId: string, now: Date, monthBucket: string) => {
    const [keys] = await db
      .select({ n: sql<number>`count(*)` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), sql`${apiKeys.revokedAt} IS NULL`));
    const [live] = await db
      .select({ n: sql<number>`count(*)` })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > ${now}`));
    const [inf] = await db
      .select({
        month: sql<number>`coalesce(sum(${inferenceUsage.count}) FILTER (WHERE ${inferenceUsage.bucket} = ${monthBucket}), 0)`,
        total: sql<number>`coalesce(sum(${inferenceUsage.count}) FILTER (WHERE ${inferenceUsage.bucket} LIKE 'm:%'), 0)`,
      })
      .from(inferenceUsage)
      .where(and(eq(inferenceUsage.userId, userId), eq(inferenceUsage.apiKeyId, '')));
    const [teams] = await db
      .select({ n: sql<number>`count(*)` })
      .from(teamMembers)
      .where(eq(teamMembers.userId, userId));
    return {
      apiKeys: Number(keys?.n ?? 0),
      sessions: Number(live?.n ?? 0),
      inference: { thisMonth: Number(inf?.month ?? 0), total: Number(inf?.total ?? 0) },
      teams: Number(teams?.n ?? 0),
    };
  },

  // jobs of the platform queue (dataset processing, imports, purge, mail...) and of GPU agents
  /**
   * Queue jobs in these statuses, newest update first, after the cursor's job in (updated_at, id)
   * order (index of migration 0035). `sortKey` is the update time to the microsecond, as text, so the
   * merge with agent jobs orders as the database does.
   */
  queueJobs: (db: Db, statuses: string[], after: JobsAfter | null, limit: number) =>
    db
      .select({ row: jobs, sortKey: microsKey(jobs.updatedAt) })
      .from(jobs)
      .where(and(inArray(jobs.status, statuses), after ? sql`(${jobs.updatedAt}, ${jobs.id}) < ${cursorRow(after)}` : undefined))
      .orderBy(desc(jobs.updatedAt), desc(jobs.id))
      .limit(limit),
  queueJob: async (db: Db, id: string) => (await db.select().from(jobs).where(eq(jobs.id, id)).limit(1))[0] ?? null,
  /** Moves a job from one status to another; null when it was not in `from` any more. */
  moveQueueJob: async (db: Db, id: string, from: string[], patch: Partial<typeof jobs.$inferInsert>) =>
    (
      await db
        .update(jobs)
        .set(patch)
        .where(and(eq(jobs.id, id), inArray(jobs.status, from)))
        .returning()
    )[0] ?? null,
  agentJobs: (db: Db, statuses: AgentJobRow['status'][], after: JobsAfter | null, limit: number) =>
    db
      .select({ row: agentJobs, sortKey: microsKey(agentJobs.updatedAt) })
      .from(agentJobs)
      .where(and(inArray(agentJobs.status, statuses), after ? sql`(${agentJobs.updatedAt}, ${agentJobs.id}) < ${cursorRow(after)}` : undefined))
      .orderBy(desc(agentJobs.updatedAt), desc(agentJobs.id))
      .limit(limit),
  /** Names behind the ids jobs carry: users, models, datasets, one query per kind asked for. */
  namesOf: async (db: Db, ids: { users: string[]; models: string[]; datasets: string[] }) => {
    const [u, m, d] = await Promise.all([
      ids.users.length ? db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, ids.users)) : [],
      ids.models.length ? db.select({ id: models.id, name: models.name }).from(models).where(inArray(models.id, ids.models)) : [],
      ids.datasets.length ? db.select({ id: datasets.id, name: datasets.name }).from(datasets).where(inArray(datasets.id, ids.datasets)) : [],
    ]);
    const map = (rows: Array<{ id: string; name: string }>) => new Map(rows.map((r) => [r.id, r.name]));
    return { users: map(u), models: map(m), datasets: map(d) };
  },
  agentJob: async (db: Db, id: string) => (await db.select().from(agentJobs).where(eq(agentJobs.id, id)).limit(1))[0] ?? null,

  /** Users' feedback, newest update first, after the user `afterId` in (updated, id) order (index of migration 0035). */
  feedbackPage: (db: Db, afterId: string | null, limit: number) =>
    db
      .select()
      .from(users)
      .where(
        and(
          isNotNull(users.feedbackCreatedAt),
          afterId === null
            ? undefined
            : sql`(${users.feedbackUpdatedAt}, ${users.id}) < (select u.feedback_updated_at, u.id from users u where u.id = ${afterId})`,
        ),
      )
      .orderBy(desc(users.feedbackUpdatedAt), desc(users.id))
      .limit(limit),
  feedbackStats: async (db: Db) => {
    const rows = await db
      .select({ rating: users.feedbackRating, n: sql<number>`count(*)` })
      .from(users)
      .where(isNotNull(users.feedbackCreatedAt))
      .groupBy(users.feedbackRating);
    return rows.map((r) => ({ rating: r.rating, n: Number(r.n) }));
  },
};
