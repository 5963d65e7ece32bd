import { and, count, desc, eq, gt, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, notifications, teamInvites, teams, users } from '../../platform/db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;
export interface InviteState {
  role: 'admin' | 'member' | 'labeler' | 'viewer';
  invitedBy: string;
  expiresAt: Date;
  pending: boolean;
}
export type NotificationWithInvite = NotificationRow & { invite: InviteState | null };

/** An open invite: neither answered nor cancelled, not expired, of a live team. */
const openInvite = (now: Date) =>
  and(isNull(teamInvites.acceptedAt), isNull(teamInvites.rejectedAt), isNull(teamInvites.cancelledAt), gt(teamInvites.expiresAt, now));

/** The only place the notifications module talks SQL. */
export const notificationsRepository = {
  /** A record with a dedupe key that exists already adds nothing (null). */
  insert: async (db: Db, row: typeof notifications.$inferInsert) => (await db.insert(notifications).values(row).onConflictDoNothing().returning())[0] ?? null,
  byId: async (db: Db, id: string) => (await db.select().from(notifications).where(eq(notifications.id, id)).limit(1))[0] ?? null,
  /** Retention (ADR 0028): a user's records made before `before` go. */
  prune: (db: Db, userId: string, before: Date) => db.delete(notifications).where(and(eq(notifications.userId, userId), lt(notifications.createdAt, before))),

  /** Newest first, after the (created, id) of the cursor; one row more than asked tells whether a next page exists. */
  page: async (
    db: Db,
    userId: string,
    opts: { after: { created: Date; id: string } | null; limit: number; unreadOnly: boolean; now: Date },
  ): Promise<NotificationWithInvite[]> => {
    const rows = await db
      .select({ n: notifications, invite: teamInvites, inviter: users.username })
      .from(notifications)
      .leftJoin(teamInvites, eq(teamInvites.id, notifications.inviteId))
      .leftJoin(users, eq(users.id, teamInvites.invitedBy))
      .where(
        and(
          eq(notifications.userId, userId),
          opts.unreadOnly ? isNull(notifications.readAt) : undefined,
          opts.after
            ? or(lt(notifications.createdAt, opts.after.created), and(eq(notifications.createdAt, opts.after.created), lt(notifications.id, opts.after.id)))
            : undefined,
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(opts.limit);
    return rows.map((r) => ({
      ...r.n,
      invite: r.invite
        ? {
            role: r.invite.role,
            invitedBy: r.inviter ?? '',
            expiresAt: r.invite.expiresAt,
            pending: !r.invite.acceptedAt && !r.invite.rejectedAt && !r.invite.cancelledAt && r.invite.expiresAt > opts.now,
          }
        : null,
    }));
  },

  /** Unread records; an invite's record only while the invite is open (an answered invite is no news). */
  unreadCount: async (db: Db, userId: string, now: Date) => {
    const [row] = await db
      .select({ n: count() })
      .from(notifications)
      .leftJoin(teamInvites, eq(teamInvites.id, notifications.inviteId))
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), or(ne(notifications.kind, 'team.invite'), openInvite(now))));
    return Number(row?.n ?? 0);
  },

  markRead: async (db: Db, userId: string, id: string, now: Date) =>
    (
      await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id })
    ).length,
  markAllRead: async (db: Db, userId: string, now: Date) =>
    (
      await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id })
    ).length,

  /** Open invites to an address (of live teams) that have no record for this user yet. */
  unrecordedInvites: async (db: Db, userId: string, email: string, now: Date) => {
    const recorded = db
      .select({ id: notifications.inviteId })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'team.invite')));
    return db
      .select({ id: teamInvites.id, teamId: teams.id, teamName: teams.name, createdAt: teamInvites.createdAt })
      .from(teamInvites)
      .innerJoin(teams, eq(teams.id, teamInvites.teamId))
      .where(and(eq(sql`lower(${teamInvites.email})`, email.toLowerCase()), openInvite(now), isNull(teams.deletedAt), notInArray(teamInvites.id, recorded)));
  },

  /** Names of the items records are about (an event may carry only the id). */
  modelName: async (db: Db, id: string) =>
    (await db.select({ name: models.name, userId: models.userId }).from(models).where(eq(models.id, id)).limit(1))[0] ?? null,
  datasetName: async (db: Db, id: string) =>
    (await db.select({ name: datasets.name, userId: datasets.userId }).from(datasets).where(eq(datasets.id, id)).limit(1))[0] ?? null,
  /** Live accounts with the admin role: who hears of an upgrade request. */
  adminIds: async (db: Db) =>
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`'admin' = ANY(${users.roles})`, isNull(users.deletedAt)))
    ).map((r) => r.id),
  liveUser: async (db: Db, id: string) =>
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, id), isNull(users.deletedAt)))
        .limit(1)
    )[0] ?? null,
};
