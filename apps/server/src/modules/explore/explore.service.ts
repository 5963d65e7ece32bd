import { can, EXPLORE_KINDS, type ExploreItem, type ExploreKind, type ExplorePage } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { exploreRepository, type ExploreRow } from './explore.repository.js';

/** `%text%` for ILIKE, the pattern characters of the text taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamp as PostgreSQL prints it (`2026-11-26 15:20:30.768123+00`), nothing else reaches SQL. */
const PG_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

const encodeCursor = (row: ExploreRow) => Buffer.from(JSON.stringify([row.updated_text, row.id])).toString('base64url');
function decodeCursor(cursor: string): { updated: string; id: string } {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && PG_TIME.test(v[0]) && v[1].length <= 40)
      return { updated: v[0], id: v[1] };
  } catch {
    // falls through to the 400
  }
  throw errors.validation('cursor is not one this server handed out');
}

export function presentExplore(row: ExploreRow): ExploreItem {
  return {
    kind: row.kind,
    id: row.id,
    name: row.name,
    description: row.description,
    owner: { username: row.owner },
    updated: new Date(row.updated).toISOString(),
    task: row.task,
    parentName: row.parent_name,
  };
}

/**
 * Others' public items (ADR 0030). Which kinds may be listed comes from the permission matrix:
 * the viewer is `user` (signed in) or `anonymous` on a `public` item and needs `list`.
 */
export async function explore(
  ctx: AppContext,
  viewerId: string | null,
  q: { q?: string; kind?: ExploreKind; cursor?: string; limit: number },
): Promise<ExplorePage> {
  const subject = viewerId ? 'user' : 'anonymous';
  const kinds = (q.kind ? [q.kind] : EXPLORE_KINDS).filter((k) => can(subject, k, 'public', 'list'));
  const rows = await exploreRepository.page(ctx.db, {
    kinds,
    excludeUserId: viewerId,
    pattern: q.q ? containsPattern(q.q) : null,
    after: q.cursor ? decodeCursor(q.cursor) : null,
    limit: q.limit + 1,
  });
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return { items: page.map(presentExplore), next: more ? encodeCursor(page[page.length - 1]!) : null };
}
