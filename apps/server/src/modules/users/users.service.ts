import { ErrorCode, Messages } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { cacheTags, type Invalidations, type TaggedCache } from '../../platform/cache/invalidation.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import { presentUser } from './users.presenter.js';
import { usersRepository, type UserRow } from './users.repository.js';

export async function updateProfile(
  ctx: AppContext,
  user: UserRow,
  patch: { firstName?: string; lastName?: string | null; username?: string; onboard?: boolean },
) {
  if (patch.username && patch.username.toLowerCase() !== user.username.toLowerCase()) {
    const taken = await usersRepository.byUsername(ctx.db, patch.username);
    if (taken) throw errors.conflict(ErrorCode.UsernameInUse, 'This username is already taken');
  }
  let updated: UserRow | null;
  try {
    updated = await usersRepository.update(ctx.db, user.id, { ...patch, updatedAt: ctx.clock.now() });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw errors.conflict(ErrorCode.UsernameInUse, 'This username is already taken');
    throw err;
  }
  if (!updated) throw errors.notFound('User');
  evictUser(ctx, user.id);
  await ctx.events.emit('user.profileUpdated', updated.id, { user: presentUser(updated), fields: Object.keys(patch) });
  return updated;
}

export async function saveFeedback(ctx: AppContext, user: UserRow, rating: number | null, review: string) {
  const now = ctx.clock.now();
  const updated = await usersRepository.update(ctx.db, user.id, {
    feedbackRating: rating,
    feedbackReview: review.trim(),
    feedbackCreatedAt: user.feedbackCreatedAt ?? now,
    feedbackUpdatedAt: now,
  });
  evictUser(ctx, user.id);
  return updated!;
}

/** A 256×256 PNG of the uploaded picture, stored under the user's folder behind a lasting signed URL. */
export async function setProfileImage(ctx: AppContext, user: UserRow, image: Buffer) {
  const { default: sharp } = await import('sharp');
  let png: Buffer;
  try {
    png = await sharp(image).rotate().resize(256, 256, { fit: 'cover' }).png().toBuffer();
  } catch {
    throw new AppError(400, ErrorCode.InvalidImage, Messages.invalidImage);
  }
  const key = blobKeys.profileImage(user.id, `${newId()}.png`);
  await ctx.blobs.put(key, png, { contentType: 'image/png' });
  const url = signBlobUrl({ key, expiresAt: new Date('2100-01-01T00:00:00Z'), secret: ctx.secret, baseUrl: '' });
  const updated = await usersRepository.update(ctx.db, user.id, { image: url, updatedAt: ctx.clock.now() });
  evictUser(ctx, user.id);
  await ctx.events.emit('user.profileUpdated', user.id, { user: presentUser(updated!), fields: ['image'] });
  return updated!;
}

/**
 * This instance's cached principals and `/v1/users/me` of the user go now; other instances evict on
 * the NOTIFY of the users trigger (migration 0017).
 */
function evictUser(ctx: Pick<AppContext, 'invalidations'>, userId: string) {
  ctx.invalidations.evict(cacheTags.user(userId));
}

const providerCaches = new WeakMap<Invalidations, TaggedCache<string[]>>();
const usernameCaches = new WeakMap<Invalidations, TaggedCache<string>>();

/**
 * Usernames of the owners of listed items, cached per instance under each user's tag (a rename
 * evicts it on every instance): lists ask the database only for owners not seen lately.
 */
export async function ownerNames(ctx: Pick<AppContext, 'db' | 'invalidations'>, ids: Iterable<string>): Promise<Map<string, string>> {
  let cache = usernameCaches.get(ctx.invalidations);
  if (!cache) usernameCaches.set(ctx.invalidations, (cache = ctx.invalidations.cache<string>({ ttlMs: 60_000, max: 50_000 })));
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = cache.get(id);
    if (hit !== undefined) out.set(id, hit);
    else missing.push(id);
  }
  if (missing.length) {
    const since = cache.mark();
    for (const r of await usersRepository.usernames(ctx.db, missing)) {
      out.set(r.id, r.username);
      cache.set(r.id, r.username, [cacheTags.user(r.id)], since);
    }
  }
  return out;
}

/**
 * `/v1/users/me` of the signed-in user: the row auth already loaded (kept true by the auth cache)
 * and the linked sign-in providers, cached per instance under the user's tag: no query when warm,
 * one when cold.
 */
export async function presentMe(ctx: Pick<AppContext, 'db' | 'invalidations'>, user: UserRow) {
  let cache = providerCaches.get(ctx.invalidations);
  if (!cache) providerCaches.set(ctx.invalidations, (cache = ctx.invalidations.cache<string[]>({ ttlMs: 30_000, max: 20_000 })));
  const providers = await cache.getOrLoad(user.id, async () => ({
    value: (await usersRepository.identities(ctx.db, user.id)).map((i) => i.provider),
    tags: [cacheTags.user(user.id)],
  }));
  return presentUser(user, providers ?? [], await usageOf(ctx, user.id));
}

const usageCaches = new WeakMap<Invalidations, TaggedCache<Record<string, number>>>();

/**
 * Spec §3 "usage counters per collection": the user's datasets, projects, models and owned teams
 * not in the trash. Cached per instance under `n:<uid>`, which the triggers of migration 0024 send
 * whenever such a row appears, goes or changes owner: no query when warm (ADR 0017).
 */
export async function usageOf(ctx: Pick<AppContext, 'db' | 'invalidations'>, userId: string): Promise<Record<string, number>> {
  let cache = usageCaches.get(ctx.invalidations);
  if (!cache) usageCaches.set(ctx.invalidations, (cache = ctx.invalidations.cache<Record<string, number>>({ ttlMs: 60_000, max: 20_000 })));
  return (await cache.getOrLoad(userId, async () => ({ value: await usersRepository.usageCounts(ctx.db, userId), tags: [cacheTags.usage(userId)] }))) ?? {};
}

/** The user as `/v1/users/me` answers it, with the sign-in providers linked to the account and the usage counters. */
export async function presentUserById(app: { ctx: Pick<AppContext, 'db' | 'invalidations'> }, id: string) {
  const row = await usersRepository.byId(app.ctx.db, id);
  const identities = row ? await usersRepository.identities(app.ctx.db, id) : [];
  return presentUser(
    row!,
    identities.map((i) => i.provider),
    await usageOf(app.ctx, id),
  );
}

/** Soft deletion of the account (the caller checked the password and ends the sessions). */
export async function markDeleted(ctx: AppContext, userId: string) {
  await usersRepository.update(ctx.db, userId, { deletedAt: ctx.clock.now() });
  evictUser(ctx, userId);
}

export async function restoreAccount(ctx: AppContext, userId: string, graceDays: number) {
  const user = await usersRepository.byId(ctx.db, userId);
  if (!user) throw errors.notFound('User');
  if (!user.deletedAt) return user;
  if (ctx.clock.now().getTime() - user.deletedAt.getTime() > graceDays * 86_400_000) {
    throw errors.conflict(ErrorCode.GracePeriodOver, 'The grace period for restoring this account is over');
  }
  return (await usersRepository.update(ctx.db, userId, { deletedAt: null }))!;
}
