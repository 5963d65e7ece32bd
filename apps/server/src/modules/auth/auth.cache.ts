import type { AppContext } from '../../context.js';
import { cacheTags, type Invalidations, type TaggedCache } from '../../platform/cache/invalidation.js';
import type { Principal } from '../../platform/http/auth-context.js';

/**
 * Sessions and API keys resolved per instance without a query (ADR 0017). An entry carries its
 * user's tag: any write to the user, their sessions, keys or linked identities evicts it on every
 * instance (triggers of migration 0017 → NOTIFY), and the instance that wrote evicts at once
 * (`evictUser`). The TTL is only a backstop.
 */
export const AUTH_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 20_000;

export interface CachedCredential {
  principal: Principal;
  /** session expiry (ms), checked against ctx.clock on every hit; Infinity for API keys */
  expiresAt: number;
  /** last touch written to the database (ms): sessions and keys record use once a minute */
  touchedAt: number;
}

const caches = new WeakMap<Invalidations, TaggedCache<CachedCredential>>();

/** Cache key → credential; keys are the stored hashes, so the cache never holds a secret. */
export function credentialCache(ctx: Pick<AppContext, 'invalidations'>): TaggedCache<CachedCredential> {
  let c = caches.get(ctx.invalidations);
  if (!c) caches.set(ctx.invalidations, (c = ctx.invalidations.cache<CachedCredential>({ ttlMs: AUTH_CACHE_TTL_MS, max: MAX_ENTRIES })));
  return c;
}

export const credentialTags = (userId: string) => [cacheTags.user(userId)];

/** Evicts the user's cached sessions and keys on this instance now (others evict on the trigger's NOTIFY). */
export function evictUser(ctx: Pick<AppContext, 'invalidations'>, userId: string) {
  ctx.invalidations.evict(cacheTags.user(userId));
}
