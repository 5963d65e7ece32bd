import type { AppContext } from '../../context.js';
import { cacheTags, type Invalidations, type TaggedCache } from '../../platform/cache/invalidation.js';
import { datasetsRepository, type DatasetRow } from './datasets.repository.js';

/** What a signed image link of a dataset is checked against (owner, team, privacy, trash) and what serving its images needs (the archive). */
export type LinkedDataset = Pick<DatasetRow, 'id' | 'userId' | 'teamId' | 'privacy' | 'deletedAt' | 'storageKey'>;

const caches = new WeakMap<Invalidations, TaggedCache<LinkedDataset>>();
/** A backstop: entries are evicted by tag (migration 0037's trigger, and the domain events below). */
const TTL_MS = 60_000;

function cacheOf(ctx: Pick<AppContext, 'invalidations'>) {
  let cache = caches.get(ctx.invalidations);
  if (!cache) caches.set(ctx.invalidations, (cache = ctx.invalidations.cache<LinkedDataset>({ ttlMs: TTL_MS, max: 10_000 })));
  return cache;
}

/**
 * The dataset behind a signed image link, cached per instance (ADR 0043): a page of previews asks for
 * the same row once per image, and the row changes only when its owner, team, privacy, trash state or
 * archive does. Those changes evict it on every instance within milliseconds through NOTIFY (migration
 * 0037, ADR 0017), and at once on this instance through the dataset's domain events; while LISTEN is
 * down the cache answers nothing. The link itself (signature, expiry, holder) is still checked on every
 * request against these facts.
 */
export async function linkedDataset(ctx: Pick<AppContext, 'db' | 'invalidations'>, id: string): Promise<LinkedDataset | null> {
  return cacheOf(ctx).getOrLoad(id, async () => {
    const row = await datasetsRepository.linkFacts(ctx.db, id);
    return row ? { value: row, tags: [cacheTags.dataset(id)] } : null;
  });
}

/** Every event that carries a dataset's state (shared, trashed, restored, uploaded, processed…) evicts its facts on this instance before its NOTIFY lands. */
export function evictLinkedDatasetsOnChange(ctx: Pick<AppContext, 'events' | 'invalidations'>) {
  ctx.events.on((e) => {
    if (!e.name.startsWith('dataset.')) return;
    const id = (e.data.dataset as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') ctx.invalidations.evict(cacheTags.dataset(id));
  });
}
