import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TeamMemberRole } from '@sightline/contracts';
import type { Db } from '../../platform/db/client.js';
import { teamMembers, teams } from '../../platform/db/schema.js';

/**
 * SQL condition: the row's team (`teamIdColumn`) is a live team the user belongs to. Item lists use
 * it to show team items to members (issue 11) without knowing more about teams.
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
};
