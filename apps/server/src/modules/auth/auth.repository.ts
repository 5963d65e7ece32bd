import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedPer } from '../../platform/db/prepared.js';
import { mailTokens, sessions, teamInvites, teams, users } from '../../platform/db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;

const sessionWithUserQuery = preparedPer((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('sl_session_with_user'),
);
export type MailTokenRow = typeof mailTokens.$inferSelect;

/** Sessions and mail tokens (verification, password reset). */
export const authRepository = {
  /**
   * Is there an open invite of a live team with this token hash, sent to `email`? (A sign-up from
   * the invite link proves the address; read here, not through teams, which depends on auth.)
   */
  openInviteTo: async (db: Db, teamId: string, tokenHash: string, email: string, now: Date) =>
    (
      await db
        .select({ id: teamInvites.id })
        .from(teamInvites)
        .innerJoin(teams, eq(teams.id, teamInvites.teamId))
        .where(
          and(
            eq(teamInvites.teamId, teamId),
            eq(teamInvites.tokenHash, tokenHash),
            eq(sql`lower(${teamInvites.email})`, email.trim().toLowerCase()),
            isNull(teamInvites.acceptedAt),
            isNull(teamInvites.rejectedAt),
            isNull(teamInvites.cancelledAt),
            gt(teamInvites.expiresAt, now),
            isNull(teams.deletedAt),
          ),
        )
        .limit(1)
    ).length > 0,
  /** Serialises sign-ups inside a transaction so exactly one "first account" becomes admin. */
  lockSignUps: async (tx: Db) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(4242)`);
  },

  insertSession: async (db: Db, row: typeof sessions.$inferInsert) => {
    await db.insert(sessions).values(row);
  },
  /** A live session by its token hash, with its user. */
  sessionWithUser: async (db: Db, tokenHash: string, now: Date) => (await sessionWithUserQuery(db).execute({ tokenHash, now }))[0] ?? null,
  touchSession: async (db: Db, id: string, now: Date) => {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  },
  deleteSession: async (db: Db, id: string) => {
    await db.delete(sessions).where(eq(sessions.id, id));
  },
  /** Ends every session of the user, except `keepId` when given. */
  deleteSessionsOf: async (db: Db, userId: string, keepId?: string) => {
    await db.delete(sessions).where(keepId ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${keepId}`) : eq(sessions.userId, userId));
  },

  insertMailToken: async (db: Db, row: typeof mailTokens.$inferInsert) => {
    await db.insert(mailTokens).values(row);
  },
  mailTokenByHash: async (db: Db, tokenHash: string) => (await db.select().from(mailTokens).where(eq(mailTokens.tokenHash, tokenHash)).limit(1))[0] ?? null,
  /** Marks a token used unless it already is: false when a concurrent submit won. */
  useMailToken: async (db: Db, id: string, now: Date) =>
    (
      await db
        .update(mailTokens)
        .set({ usedAt: now })
        .where(and(eq(mailTokens.id, id), isNull(mailTokens.usedAt)))
        .returning({ id: mailTokens.id })
    ).length > 0,
};
