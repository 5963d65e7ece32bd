import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { authIdentities, datasets, models, projects, settings, teams, users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export const usersRepository = {
  byId: async (db: Db, id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0] ?? null,
  byEmail: async (db: Db, email: string) => (await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1))[0] ?? null,
  byUsername: async (db: Db, username: string) =>
    (
      await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1)
    )[0] ?? null,
  count: async (db: Db) => Number((await db.select({ n: sql<number>`count(*)` }).from(users))[0]?.n ?? 0),
  insert: async (db: Db, row: NewUserRow) => (await db.insert(users).values(row).returning())[0]!,
  update: async (db: Db, id: string, patch: Partial<NewUserRow>) => (await db.update(users).set(patch).where(eq(users.id, id)).returning())[0] ?? null,
  /** Usernames by id, one query. */
  usernames: async (db: Db, ids: string[]) =>
    ids.length ? db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids)) : [],
  identities: async (db: Db, userId: string) => db.select().from(authIdentities).where(eq(authIdentities.userId, userId)),
  identity: async (db: Db, provider: string, subject: string) =>
    (
      await db
        .select()
        .from(authIdentities)
        .where(and(eq(authIdentities.provider, provider), eq(authIdentities.subject, subject)))
        .limit(1)
    )[0] ?? null,
  addIdentity: async (db: Db, row: typeof authIdentities.$inferInsert) => db.insert(authIdentities).values(row),
  /** Spec §3 "usage counters per collection": the user's items not in the trash (archived ones count), one query. */
  usageCounts: async (db: Db, userId: string) => {
    const res = await db.execute(sql`SELECT
        (SELECT count(*) FROM ${datasets} WHERE ${datasets.userId} = ${userId} AND ${datasets.deletedAt} IS NULL) AS datasets,
        (SELECT count(*) FROM ${projects} WHERE ${projects.userId} = ${userId} AND ${projects.deletedAt} IS NULL) AS projects,
        (SELECT count(*) FROM ${models} WHERE ${models.userId} = ${userId} AND ${models.deletedAt} IS NULL) AS models,
        (SELECT count(*) FROM ${teams} WHERE ${teams.ownerId} = ${userId} AND ${teams.deletedAt} IS NULL) AS teams`);
    const row = (res as unknown as { rows: Array<Record<'datasets' | 'projects' | 'models' | 'teams', number | string>> }).rows[0];
    return { datasets: Number(row?.datasets ?? 0), projects: Number(row?.projects ?? 0), models: Number(row?.models ?? 0), teams: Number(row?.teams ?? 0) };
  },
  listActive: async (db: Db) => db.select().from(users).where(isNull(users.deletedAt)),
  insertSettings: async (db: Db, userId: string) => {
    await db.insert(settings).values({ userId });
  },
};
