import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, projects, teams } from '../../platform/db/schema.js';
import { inTeamsOf } from '../access/index.js';

export interface RecentRow {
  kind: 'dataset' | 'project' | 'model' | 'team';
  id: string;
  name: string;
  updated: Date | string;
  parent_name: string | null;
}

const rowsOf = (res: unknown) => (res as { rows: RecentRow[] }).rows;

/** Live items the user owns or sees through a team, one SELECT per collection, the name filtered when asked. */
function branches(userId: string, name: SQL | null, withTeams: boolean): SQL {
  const match = (column: SQL) => (name ? sql` AND ${column} ILIKE ${name}` : sql``);
  const parts = [
    sql`SELECT 'dataset' AS kind, ${datasets.id} AS id, ${datasets.name} AS name, ${datasets.updatedAt} AS updated, NULL::text AS parent_name
        FROM ${datasets}
        WHERE ${datasets.deletedAt} IS NULL AND ${datasets.archivedAt} IS NULL
          AND (${datasets.userId} = ${userId} OR ${inTeamsOf(userId, datasets.teamId)})${match(sql`${datasets.name}`)}`,
    sql`SELECT 'project', ${projects.id}, ${projects.name}, ${projects.updatedAt}, NULL::text
        FROM ${projects}
        WHERE ${projects.deletedAt} IS NULL AND ${projects.archivedAt} IS NULL
          AND (${projects.userId} = ${userId} OR ${inTeamsOf(userId, projects.teamId)})${match(sql`${projects.name}`)}`,
    sql`SELECT 'model', ${models.id}, ${models.name}, ${models.updatedAt}, (SELECT p.name FROM projects p WHERE p.id = ${models.projectId})
        FROM ${models}
        WHERE ${models.deletedAt} IS NULL AND ${models.archivedAt} IS NULL
          AND (${models.userId} = ${userId} OR ${inTeamsOf(userId, models.teamId)})${match(sql`${models.name}`)}`,
  ];
  if (withTeams) {
    parts.push(sql`SELECT 'team', ${teams.id}, ${teams.name}, ${teams.updatedAt}, NULL::text
        FROM ${teams}
        WHERE ${teams.deletedAt} IS NULL AND ${teams.id} IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ${userId})${match(sql`${teams.name}`)}`);
  }
  return sql.join(parts, sql` UNION ALL `);
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const recentRepository = {
  /** The most recently changed datasets, projects and models of the user: one query. */
  recent: async (db: Db, userId: string, limit: number): Promise<RecentRow[]> =>
    rowsOf(await db.execute(sql`SELECT * FROM (${branches(userId, null, false)}) AS items ORDER BY updated DESC, id LIMIT ${limit}`)),
  /** Items whose name contains the text (any case), names starting with it first, then the newest: one query. */
  search: async (db: Db, userId: string, text: string, limit: number): Promise<RecentRow[]> => {
    const prefix = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return rowsOf(
      await db.execute(
        sql`SELECT * FROM (${branches(userId, sql`${containsPattern(text)}`, true)}) AS items
            ORDER BY (name ILIKE ${prefix}) DESC, updated DESC, id LIMIT ${limit}`,
      ),
    );
  },
};
