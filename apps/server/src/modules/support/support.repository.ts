import { and, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.js';
import { supportSettings, upgradeRequests, users } from '../../platform/db/schema.js';

export type UpgradeRequestRow = typeof upgradeRequests.$inferSelect;
export type Status = UpgradeRequestRow['status'];

const decider = alias(users, 'decider');

/** Upgrade requests and the support settings row (migration 0026). */
export const supportRepository = {
  userPlan: async (db: Db, userId: string) => (await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1))[0]?.plan ?? null,
  username: async (db: Db, userId: string) =>
    (await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1))[0]?.username ?? null,

  /** One open request per user: asking again replaces the plan and the note of the open one. */
  upsertOpen: async (db: Db, row: { id: string; userId: string; plan: 'pro' | 'enterprise'; fromPlan: string; message: string; now: Date }) =>
    (
      await db
        .insert(upgradeRequests)
        .values({ id: row.id, userId: row.userId, plan: row.plan, fromPlan: row.fromPlan, message: row.message, status: 'open', createdAt: row.now })
        .onConflictDoUpdate({
          target: upgradeRequests.userId,
          targetWhere: sql`status = 'open'`,
          set: { plan: row.plan, fromPlan: row.fromPlan, message: row.message, createdAt: row.now },
        })
        .returning()
    )[0]!,

  openOf: async (db: Db, userId: string) =>
    (
      await db
        .select()
        .from(upgradeRequests)
        .where(and(eq(upgradeRequests.userId, userId), eq(upgradeRequests.status, 'open')))
        .limit(1)
    )[0] ?? null,

  byId: async (db: Db, id: string) => (await db.select().from(upgradeRequests).where(eq(upgradeRequests.id, id)).limit(1))[0] ?? null,

  /** Requests of a status with who asked (and who decided), newest first. */
  list: (db: Db, status: Status, limit: number) =>
    db
      .select({
        request: upgradeRequests,
        user: { uid: users.id, username: users.username, email: users.email, plan: users.plan },
        decidedBy: { uid: decider.id, username: decider.username },
      })
      .from(upgradeRequests)
      .innerJoin(users, eq(users.id, upgradeRequests.userId))
      .leftJoin(decider, eq(decider.id, upgradeRequests.decidedBy))
      .where(eq(upgradeRequests.status, status))
      .orderBy(desc(upgradeRequests.createdAt), upgradeRequests.id)
      .limit(limit),

  countOpen: async (db: Db) => (await db.select({ n: count() }).from(upgradeRequests).where(eq(upgradeRequests.status, 'open')))[0]?.n ?? 0,

  /** Closes an open request; null when it was not open (already decided, or never existed). */
  decide: async (db: Db, id: string, status: 'granted' | 'dismissed', by: string, now: Date) =>
    (
      await db
        .update(upgradeRequests)
        .set({ status, decidedAt: now, decidedBy: by })
        .where(and(eq(upgradeRequests.id, id), eq(upgradeRequests.status, 'open')))
        .returning()
    )[0] ?? null,

  reopen: (db: Db, id: string) => db.update(upgradeRequests).set({ status: 'open', decidedAt: null, decidedBy: null }).where(eq(upgradeRequests.id, id)),

  contactEmail: async (db: Db) =>
    (await db.select({ email: supportSettings.contactEmail }).from(supportSettings).where(eq(supportSettings.id, 1)).limit(1))[0]?.email ?? null,
  setContactEmail: (db: Db, email: string | null, by: string, now: Date) =>
    db
      .insert(supportSettings)
      .values({ id: 1, contactEmail: email, updatedAt: now, updatedBy: by })
      .onConflictDoUpdate({ target: supportSettings.id, set: { contactEmail: email, updatedAt: now, updatedBy: by } }),
};
