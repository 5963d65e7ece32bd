import type { Abilities, Action, TeamMemberRole } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { cacheTags, type Invalidations, type TaggedCache } from '../../platform/cache/invalidation.js';
import type { CredentialScope } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import { currentAuditScope } from '../audit/audit.context.js';
import { abilitiesOf, allows, teamIdsOf, viewerOf, type AccessItem, type Viewer } from './access.policy.js';
import { accessRepository } from './access.repository.js';

/**
 * The limits of the calling credential when `userId` is the caller: a run key reaches only its run's
 * items (ADR 0023). Read from the request being served, so every check through this module applies
 * them without each service passing the credential along.
 */
function callerScope(userId: string | null) {
  const principal = currentAuditScope()?.request.principal;
  return principal?.scope && principal.user.id === userId ? principal.scope : null;
}

/** The viewer with the team roles that matter for these items (one query, none without teams). */
export async function viewerFor(ctx: Pick<AppContext, 'db'>, userId: string | null, items: Iterable<AccessItem | null | undefined>): Promise<Viewer> {
  const teamIds = teamIdsOf(items);
  const scope = callerScope(userId);
  if (!userId || !teamIds.length) return { ...viewerOf(userId), scope };
  return { userId, roles: await accessRepository.rolesIn(ctx.db, userId, teamIds), scope };
}

/** Per-instance team roles for link checks, evicted by the triggers of migration 0021 (u:<member>, t:<team>). */
const roleCaches = new WeakMap<Invalidations, TaggedCache<TeamMemberRole | null>>();
const ROLE_CACHE_TTL_MS = 30_000;

/**
 * The viewer for a link's holder (ADR 0023): like viewerFor, but the team role comes from a
 * per-instance cache (ADR 0017) kept true by NOTIFY, so the many links of a page (thumbnails)
 * cost no query each once warm; a removal or role change evicts on every instance within a second.
 */
export async function cachedViewerFor(
  ctx: Pick<AppContext, 'db' | 'invalidations'>,
  userId: string,
  scope: CredentialScope | null,
  item: AccessItem,
): Promise<Viewer> {
  const roles = new Map<string, TeamMemberRole>();
  let cache = roleCaches.get(ctx.invalidations);
  if (!cache) roleCaches.set(ctx.invalidations, (cache = ctx.invalidations.cache<TeamMemberRole | null>({ ttlMs: ROLE_CACHE_TTL_MS, max: 20_000 })));
  for (const teamId of teamIdsOf([item])) {
    const key = `${userId}|${teamId}`;
    let role = cache.get(key);
    if (role === undefined) {
      const since = cache.mark();
      role = (await accessRepository.rolesIn(ctx.db, userId, [teamId])).get(teamId) ?? null;
      cache.set(key, role, [cacheTags.user(userId), cacheTags.team(teamId)], since);
    }
    if (role) roles.set(teamId, role);
  }
  return { userId, roles, scope };
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

/**
 * Of these users, those who may do the action on the item: one role query for all of them, whatever
 * their number (the realtime re-check of a topic's subscribers after an access change, ADR 0042).
 * No request's credential applies: the users are subscribers, not the caller.
 */
export async function usersAllowed(
  ctx: Pick<AppContext, 'db'>,
  userIds: Iterable<string>,
  item: AccessItem | null | undefined,
  action: Action,
): Promise<Set<string>> {
  const ids = [...new Set(userIds)];
  if (!item || !ids.length) return new Set();
  const teamIds = teamIdsOf([item]);
  const roles = teamIds.length ? await accessRepository.rolesOfUsers(ctx.db, ids, teamIds) : new Map<string, Map<string, TeamMemberRole>>();
  return new Set(ids.filter((userId) => allows({ userId, roles: roles.get(userId) ?? new Map(), scope: null }, item, action)));
}

/** Abilities of the caller for each item, in order (one role query for the whole list). */
export async function abilitiesFor(ctx: Pick<AppContext, 'db'>, userId: string | null, items: AccessItem[]): Promise<Abilities[]> {
  const viewer = await viewerFor(ctx, userId, items);
  return items.map((item) => abilitiesOf(viewer, item));
}
