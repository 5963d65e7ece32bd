import type { Abilities, Action } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { abilitiesOf, allows, teamIdsOf, viewerOf, type AccessItem, type Viewer } from './access.policy.js';
import { accessRepository } from './access.repository.js';

/** The viewer with the team roles that matter for these items (one query, none without teams). */
export async function viewerFor(ctx: Pick<AppContext, 'db'>, userId: string | null, items: Iterable<AccessItem | null | undefined>): Promise<Viewer> {
  const teamIds = teamIdsOf(items);
  if (!userId || !teamIds.length) return viewerOf(userId);
  return { userId, roles: await accessRepository.rolesIn(ctx.db, userId, teamIds) };
}

/** May this principal (a uid; API keys act as their owner) do this action on this item? */
export async function may(ctx: Pick<AppContext, 'db'>, userId: string | null, item: AccessItem, action: Action): Promise<boolean> {
  return allows(await viewerFor(ctx, userId, [item]), item, action);
}

export interface AuthorizeOptions {
  /** noun of the 404 (`Model` → "Model not found") */
  name: string;
  /** message of the 403 when the caller may read the item but not do the action */
  forbidden?: string;
  /** answer 404 rather than 403 when the action is denied (the item does not reveal it exists) */
  hideDenied?: boolean;
}

/**
 * Throws unless the caller may do the action: 404 when the item is missing or not readable by the
 * caller (private items do not reveal they exist), else 403 (or 404 with `hideDenied`).
 */
export async function authorize<T extends object>(
  ctx: Pick<AppContext, 'db'>,
  userId: string | null,
  row: T | null | undefined,
  toItem: (row: T) => AccessItem,
  action: Action,
  opts: AuthorizeOptions,
): Promise<T> {
  if (!row) throw errors.notFound(opts.name);
  const item = toItem(row);
  const viewer = await viewerFor(ctx, userId, [item]);
  if (allows(viewer, item, action)) return row;
  if (opts.hideDenied || !allows(viewer, item, 'read')) throw errors.notFound(opts.name);
  throw errors.forbidden(opts.forbidden);
}

/** Abilities of the caller for each item, in order (one role query for the whole list). */
export async function abilitiesFor(ctx: Pick<AppContext, 'db'>, userId: string | null, items: AccessItem[]): Promise<Abilities[]> {
  const viewer = await viewerFor(ctx, userId, items);
  return items.map((item) => abilitiesOf(viewer, item));
}
