import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, projects, teamInvites, teamMembers, teams, users, type TeamRole } from '../../platform/db/schema.js';
import type { TeamItemKind } from '@sightline/contracts';

export type TeamRow = typeof teams.$inferSelect;
export type TeamInviteRow = typeof teamInvites.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;

/** A live team: not deleted, and its owner's account is not deleted (a deleted user's team is gone). */
const live = and(isNull(teams.deletedAt), sql`NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ${teams.ownerId} AND u.deleted_at IS NOT NULL)`);
const pending = (now: Date) =>
  and(isNull(teamInvites.acceptedAt), isNull(teamInvites.rejectedAt), isNull(teamInvites.cancelledAt), gt(teamInvites.expiresAt, now));
const open = and(isNull(teamInvites.acceptedAt), isNull(teamInvites.rejectedAt), isNull(teamInvites.cancelledAt));

const itemTables = { dataset: datasets, project: projects, model: models } as const;

export const teamsRepository = {
  byId: async (db: Db, id: string) =>
    (
      await db
        .select()
        .from(teams)
        .where(and(eq(teams.id, id), live))
        .limit(1)
    )[0] ?? null,
  insert: async (db: Db, row: typeof teams.$inferInsert) => (await db.insert(teams).values(row).returning())[0]!,
  update: async (db: Db, id: string, patch: Partial<typeof teams.$inferInsert>) =>
    (await db.update(teams).set(patch).where(eq(teams.id, id)).returning())[0] ?? null,

  /** Teams the user is a member of, and teams with a pending invite to the email. */
  listFor: async (db: Db, userId: string, email: string, now: Date) => {
    const memberOf = db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId));
    const invitedTo = db
      .select({ id: teamInvites.teamId })
      .from(teamInvites)
      .where(and(eq(sql`lower(${teamInvites.email})`, email.toLowerCase()), pending(now)));
    return db
      .select()
      .from(teams)
      .where(and(live, or(inArray(teams.id, memberOf), inArray(teams.id, invitedTo))))
      .orderBy(asc(teams.createdAt), asc(teams.id));
  },

  memberCounts: async (db: Db, ids: string[]) => {
    if (!ids.length) return new Map<string, number>();
    const rows = await db
      .select({ teamId: teamMembers.teamId, n: sql<number>`count(*)` })
      .from(teamMembers)
      .where(inArray(teamMembers.teamId, ids))
      .groupBy(teamMembers.teamId);
    return new Map(rows.map((r) => [r.teamId, Number(r.n)]));
  },
  rolesOf: async (db: Db, userId: string, ids: string[]) => {
    if (!ids.length) return new Map<string, TeamRole>();
    const rows = await db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.teamId, ids)));
    return new Map(rows.map((r) => [r.teamId, r.role]));
  },
  usernames: async (db: Db, ids: string[]) => {
    if (!ids.length) return new Map<string, string>();
    const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.username]));
  },
  userById: async (db: Db, id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0] ?? null,
  userByEmail: async (db: Db, email: string) =>
    (
      await db
        .select()
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)))
        .limit(1)
    )[0] ?? null,

  members: async (db: Db, teamId: string) =>
    db
      .select({
        uid: teamMembers.userId,
        role: teamMembers.role,
        joinedAt: teamMembers.joinedAt,
        username: users.username,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(eq(teamMembers.teamId, teamId))
      .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId)),
  member: async (db: Db, teamId: string, userId: string) =>
    (
      await db
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .limit(1)
    )[0] ?? null,
  /** Inserts the member once; a second insert of the same (team, user) is a no-op (returns null). */
  addMember: async (db: Db, row: typeof teamMembers.$inferInsert) => (await db.insert(teamMembers).values(row).onConflictDoNothing().returning())[0] ?? null,
  setRole: async (db: Db, teamId: string, userId: string, role: TeamRole) =>
    (
      await db
        .update(teamMembers)
        .set({ role })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .returning()
    )[0] ?? null,
  removeMember: async (db: Db, teamId: string, userId: string) =>
    (
      await db
        .delete(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .returning()
    )[0] ?? null,
  memberIds: async (db: Db, teamId: string) =>
    (await db.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId))).map((r) => r.id),
  /** Owners and admins other than `exceptUserId`. */
  otherAdmins: async (db: Db, teamId: string, exceptUserId: string) =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(teamMembers)
          .where(and(eq(teamMembers.teamId, teamId), ne(teamMembers.userId, exceptUserId), inArray(teamMembers.role, ['owner', 'admin'])))
      )[0]?.n ?? 0,
    ),

  pendingInvites: async (db: Db, teamId: string, now: Date) =>
    db
      .select()
      .from(teamInvites)
      .where(and(eq(teamInvites.teamId, teamId), pending(now)))
      .orderBy(asc(teamInvites.createdAt)),
  /** Pending invites to this address, across teams (the invitee's notifications). */
  pendingInvitesFor: async (db: Db, email: string, now: Date) =>
    db
      .select()
      .from(teamInvites)
      .where(and(eq(sql`lower(${teamInvites.email})`, email.toLowerCase()), pending(now)))
      .orderBy(asc(teamInvites.createdAt)),
  inviteById: async (db: Db, teamId: string, id: string) =>
    (
      await db
        .select()
        .from(teamInvites)
        .where(and(eq(teamInvites.teamId, teamId), eq(teamInvites.id, id)))
        .limit(1)
    )[0] ?? null,
  inviteByToken: async (db: Db, tokenHash: string) => (await db.select().from(teamInvites).where(eq(teamInvites.tokenHash, tokenHash)).limit(1))[0] ?? null,
  /** The newest open invite of this team to this address (expired ones included, to tell "expired" from "none"). */
  openInviteFor: async (db: Db, teamId: string, email: string) =>
    (
      await db
        .select()
        .from(teamInvites)
        .where(and(eq(teamInvites.teamId, teamId), eq(sql`lower(${teamInvites.email})`, email.toLowerCase()), open))
        .orderBy(sql`${teamInvites.createdAt} DESC`)
        .limit(1)
    )[0] ?? null,
  insertInvite: async (db: Db, row: typeof teamInvites.$inferInsert) => (await db.insert(teamInvites).values(row).returning())[0]!,
  /** Closes an open invite (accepted, rejected or cancelled) once: null when another call got there first. */
  closeInvite: async (db: Db, id: string, field: 'acceptedAt' | 'rejectedAt' | 'cancelledAt', at: Date) =>
    (
      await db
        .update(teamInvites)
        .set({ [field]: at })
        .where(and(eq(teamInvites.id, id), open))
        .returning()
    )[0] ?? null,
  /** An expired invite no longer blocks a new one to the same address. */
  cancelExpired: async (db: Db, teamId: string, email: string, now: Date) =>
    db
      .update(teamInvites)
      .set({ cancelledAt: now })
      .where(and(eq(teamInvites.teamId, teamId), eq(sql`lower(${teamInvites.email})`, email.toLowerCase()), open, sql`${teamInvites.expiresAt} <= ${now}`)),
  cancelAllInvites: async (db: Db, teamId: string, now: Date) =>
    db
      .update(teamInvites)
      .set({ cancelledAt: now })
      .where(and(eq(teamInvites.teamId, teamId), open)),

  /** One of the caller-visible items by kind (owner, team, privacy, deleted). */
  item: async (db: Db, kind: TeamItemKind, id: string) => {
    const t = itemTables[kind];
    return (
      (await db.select({ id: t.id, userId: t.userId, teamId: t.teamId, privacy: t.privacy, deletedAt: t.deletedAt }).from(t).where(eq(t.id, id)).limit(1))[0] ??
      null
    );
  },
  /** Sets (or clears) the team of an item; a project takes its models along. Returns the ids touched per kind. */
  setItemTeam: async (db: Db, kind: TeamItemKind, id: string, teamId: string | null, now: Date) => {
    const t = itemTables[kind];
    await db.update(t).set({ teamId, updatedAt: now }).where(eq(t.id, id));
    if (kind !== 'project') return [] as string[];
    return (await db.update(models).set({ teamId, updatedAt: now }).where(eq(models.projectId, id)).returning({ id: models.id })).map((r) => r.id);
  },
  /** Items of the team, live ones only, per kind. */
  itemsOf: async (db: Db, teamId: string) => ({
    datasets: await db
      .select()
      .from(datasets)
      .where(and(eq(datasets.teamId, teamId), isNull(datasets.deletedAt), isNull(datasets.archivedAt)))
      .orderBy(sql`${datasets.updatedAt} DESC`),
    projects: await db
      .select()
      .from(projects)
      .where(and(eq(projects.teamId, teamId), isNull(projects.deletedAt), isNull(projects.archivedAt)))
      .orderBy(sql`${projects.updatedAt} DESC`),
    models: await db
      .select()
      .from(models)
      .where(and(eq(models.teamId, teamId), isNull(models.deletedAt), isNull(models.archivedAt)))
      .orderBy(sql`${models.updatedAt} DESC`),
  }),
  /** Item ids of the team per kind (for realtime: what drops from a leaver's lists). */
  itemIds: async (db: Db, teamId: string) => ({
    datasets: (await db.select({ id: datasets.id }).from(datasets).where(eq(datasets.teamId, teamId))).map((r) => r.id),
    projects: (await db.select({ id: projects.id }).from(projects).where(eq(projects.teamId, teamId))).map((r) => r.id),
    models: (await db.select({ id: models.id }).from(models).where(eq(models.teamId, teamId))).map((r) => r.id),
  }),
  /** A deleted team gives its items back to their owners. */
  releaseItems: async (db: Db, teamId: string, now: Date) => {
    for (const t of [datasets, projects, models]) await db.update(t).set({ teamId: null, updatedAt: now }).where(eq(t.teamId, teamId));
  },
};
