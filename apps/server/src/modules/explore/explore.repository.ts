import { sql, type SQL } from 'drizzle-orm';
import type { ExploreKind } from '@sightline/contracts';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, projects } from '../../platform/db/schema.js';

export interface ExploreRow {
  kind: ExploreKind;
  id: string;
  name: string;
  description: string;
  owner: string;
  /** the timestamp as PostgreSQL prints it: exact to the microsecond, for the cursor */
  updated_text: string;
  updated: Date | string;
  task: string | null;
  parent_name: string | null;
}

export interface ExploreFilter {
  kinds: readonly ExploreKind[];
  /** the viewer's own items are theirs, not something to explore */
  excludeUserId: string | null;
  /** ILIKE pattern over name and description */
  pattern: string | null;
  after: { updated: string; id: string } | null;
  limit: number;
}

/** Live public items whose owner's account is live, one SELECT per kind asked for, newest first. */
function branch(kind: ExploreKind, f: ExploreFilter): SQL {
  const t = kind === 'dataset' ? datasets : kind === 'project' ? projects : models;
  const task = kind === 'dataset' ? sql`${datasets.task}` : kind === 'model' ? sql`${models.task}` : sql`NULL::text`;
  const parent = kind === 'model' ? sql`(SELECT p.name FROM projects p WHERE p.id = ${models.projectId})` : sql`NULL::text`;
  const mine = f.excludeUserId ? sql` AND ${t.userId} <> ${f.excludeUserId}` : sql``;
  const match = f.pattern ? sql` AND (${t.name} ILIKE ${f.pattern} OR ${t.description} ILIKE ${f.pattern})` : sql``;
  const after = f.after
    ? sql` AND (${t.updatedAt} < ${f.after.updated}::timestamptz OR (${t.updatedAt} = ${f.after.updated}::timestamptz AND ${t.id} < ${f.after.id}))`
    : sql``;
  return sql`SELECT ${kind}::text AS kind, ${t.id} AS id, ${t.name} AS name, ${t.description} AS description, u.username AS owner,
        ${t.updatedAt}::text AS updated_text, ${t.updatedAt} AS updated, ${task} AS task, ${parent} AS parent_name
      FROM ${t} JOIN users u ON u.id = ${t.userId}
      WHERE ${t.privacy} = 'public' AND ${t.deletedAt} IS NULL AND ${t.archivedAt} IS NULL
        AND u.deleted_at IS NULL AND u.disabled_at IS NULL${mine}${match}${after}`;
}

export const exploreRepository = {
  page: async (db: Db, f: ExploreFilter): Promise<ExploreRow[]> => {
    if (!f.kinds.length) return [];
    const union = sql.join(
      f.kinds.map((k) => branch(k, f)),
      sql` UNION ALL `,
    );
    const res = await db.execute(sql`SELECT * FROM (${union}) AS items ORDER BY updated DESC, id DESC LIMIT ${f.limit}`);
    return (res as unknown as { rows: ExploreRow[] }).rows;
  },
};
