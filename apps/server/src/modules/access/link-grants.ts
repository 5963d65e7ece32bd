import type { AppContext } from '../../context.js';
import type { TaggedCache, Invalidations } from '../../platform/cache/invalidation.js';
import { cacheTags } from '../../platform/cache/invalidation.js';
import type { CredentialScope } from '../../platform/http/auth-context.js';
import { allows, type AccessItem } from './access.policy.js';
import { accessRepository } from './access.repository.js';
import { cachedViewerFor } from './access.service.js';
import { parseLinkAccess } from './link-version.js';

type LinkCtx = Pick<AppContext, 'db' | 'invalidations' | 'clock'>;

interface Holder {
  userId: string;
  /** a session's expiry (ms); Infinity for API keys */
  expiresAt: number;
  scope: CredentialScope | null;
}

/** Live holders per instance, tagged with their user: a sign-out, revocation or deletion evicts them (migration 0017 triggers, ADR 0017). */
const holderCaches = new WeakMap<Invalidations, TaggedCache<Holder>>();
const HOLDER_CACHE_TTL_MS = 30_000;

/** A link's holder (`s<session id>` or `k<API key id>`) → who it stands for, while it is still live. */
async function resolveHolder(ctx: LinkCtx, holder: string): Promise<Holder | null> {
  const kind = holder[0];
  const id = holder.slice(1);
  if ((kind !== 's' && kind !== 'k') || !id) return null;
  let cache = holderCaches.get(ctx.invalidations);
  if (!cache) holderCaches.set(ctx.invalidations, (cache = ctx.invalidations.cache<Holder>({ ttlMs: HOLDER_CACHE_TTL_MS, max: 20_000 })));
  const now = ctx.clock.now();
  const found = await cache.getOrLoad(holder, async () => {
    const row = await accessRepository.holder(ctx.db, kind, id, now);
    return row
      ? { value: { userId: row.userId, expiresAt: row.expiresAt?.getTime() ?? Infinity, scope: row.scope }, tags: [cacheTags.user(row.userId)] }
      : null;
  });
  return found && found.expiresAt > now.getTime() ? found : null;
}

/**
 * Does a link's signed access still grant its item (ADR 0023)? Its item version must be the item's
 * now (ADR 0014), and its holder — the session or API key it was handed to — must still be live and
 * still allowed to read the item: a signed-out session, a deleted key or a removed team member ends
 * the link within a second (the caches are evicted through NOTIFY). Links of signed-out callers
 * carry no holder and follow the item alone. Warm, this costs no query beyond the item's row.
 */
export async function linkGrants(ctx: LinkCtx, item: AccessItem, version: string, access: string | null): Promise<boolean> {
  if (access === null) return false;
  const link = parseLinkAccess(access);
  if (link.version !== version) return false;
  if (!link.holder) return true;
  const holder = await resolveHolder(ctx, link.holder);
  if (!holder) return false;
  return allows(await cachedViewerFor(ctx, holder.userId, holder.scope, item), item, 'read');
}
