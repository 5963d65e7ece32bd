import type { RecentItem } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { recentRepository, type RecentRow } from './recent.repository.js';

/** Row → contract item (pure). */
export function presentRecent(row: RecentRow): RecentItem {
  return { kind: row.kind, id: row.id, name: row.name, updated: new Date(row.updated).toISOString(), parentName: row.parent_name };
}

/** Home's Recent card: the caller's datasets, projects and models (own or through a team), last changed first. */
export async function recentItems(ctx: AppContext, userId: string, limit: number): Promise<RecentItem[]> {
  return (await recentRepository.recent(ctx.db, userId, limit)).map(presentRecent);
}

/** The global search: the caller's datasets, projects, models and teams by name. */
export async function searchItems(ctx: AppContext, userId: string, text: string, limit: number): Promise<RecentItem[]> {
  return (await recentRepository.search(ctx.db, userId, text, limit)).map(presentRecent);
}
