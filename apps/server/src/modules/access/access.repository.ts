import { and, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TeamMemberRole } from '@sightline/contracts';
import type { Db } from '../../platform/db/client.js';
import type { CredentialScope } from '../../platform/http/auth-context.js';
import { apiKeys, sessions, teamMembers, teams, users } from '../../platform/db/schema.js';

/**
 * SQL condition: the row's team (`teamIdColumn`) is a live team the user belongs to. The item lists
 * of datasets, projects, models and recent use it (through access/index.ts) to show team items to
 * members without knowing more about teams; the one definition (ADR 0033).
 */
export function inTeamsOf(userId: string, teamIdColumn: AnyPgColumn): SQL {
  return sql`${teamIdColumn} IN (SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id AND t.deleted_at IS NULL WHERE tm.user_id = ${userId})`;
}

export const accessRepository = {
  /** The caller's role in each of these live teams (teams they are not in, or deleted ones, are absent). */
  rolesIn: async (db: Db, userId: string, teamIds: string[]): Promise<Map<string, TeamMemberRole>> => {
    if (!teamIds.length) return new Map();
    const rows = await db
      .select({ teamId: teamMembers.teamId, role: teamMembers.role })
      .from(teamMembers)
      .innerJoin(teams, and(eq(teams.id, teamMembers.teamId), isNull(teams.deletedAt)))
      .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.teamId, teamIds)));
    return new Map(rows.map((r) => [r.teamId, r.role]));
  },
  /** Each of these users' roles in these live teams, in one query (the realtime re-check of a topic's subscribers). */
  rolesOfUsers: async (db: Db, userIds: string[], teamIds: string[]): Promise<Map<string, Map<string, TeamMemberRole>>> => {
    const out = new Map<string, Map<string, TeamMemberRole>>();
    if (!userIds.length || !teamIds.length) return out;
    const rows = await db
      .select({ userId: teamMembers.userId, teamId: teamMembers.teamId, role: teamMembers.role })
      .from(teamMembers)
      .innerJoin(teams, and(eq(teams.id, teamMembers.teamId), isNull(teams.deletedAt)))
      .where(and(inArray(teamMembers.userId, userIds), inArray(teamMembers.teamId, teamIds)));
    for (const r of rows) {
      let roles = out.get(r.userId);
      if (!roles) out.set(r.userId, (roles = new Map()));
      roles.set(r.teamId, r.role);
    }
    return out;
  },
  /**
   * A link's holder (ADR 0023) by id: a live session (`s`) or a live API key (`k`) of a user who is
   * neither deleted nor disabled, with the key's scope; null when it no longer stands.
   */
  holder: async (db: Db, kind: 's' | 'k', id: string, now: Date): Promise<{ userId: string; expiresAt: Date | null; scope: CredentialScope | null } | null> => {
    if (kind === 's') {
      const [row] = await db
        .select({ userId: sessions.userId, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.deletedAt), isNull(users.disabledAt)))
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
        .limit(1);
      return row ? { ...row, scope: null } : null;
    }
    const [row] = await db
      .select({ userId: apiKeys.userId, scope: apiKeys.scope })
      .from(apiKeys)
      .innerJoin(users, and(eq(users.id, apiKeys.userId), isNull(users.deletedAt), isNull(users.disabledAt)))
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .limit(1);
    return row ? { userId: row.userId, expiresAt: null, scope: row.scope ?? null } : null;
  },
};
