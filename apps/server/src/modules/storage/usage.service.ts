import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { planLimits } from '../billing/billing.plans.js';
import { userQueries } from '../users/index.js';
import { storageRepository } from './storage.repository.js';

/**
 * Bytes a user stores: datasets, model files and project images, trashed items included until
 * purged (product notes: trashed items still count toward storage). Items of a team count against
 * the team's owner, with the team images (ADR 0008).
 */
export async function storageUsed(
  ctx: Pick<AppContext, 'db'> & Partial<Pick<AppContext, 'clock'>>,
  userId: string,
  excludingReservation: string | null = null,
): Promise<number> {
  return storageRepository.usedBytes(ctx.db, userId, ctx.clock?.now() ?? new Date(), excludingReservation);
}

/** Storage of a user known only by id (their plan is looked up): the upload server's check. */
export async function storageRemainingOf(ctx: Pick<AppContext, 'db'>, userId: string) {
  const user = await userQueries.byId(ctx.db, userId);
  return storageRemaining(ctx, { id: userId, plan: user?.plan ?? 'free' });
}

/** `excludingReservation`: an upload asking what is left besides the bytes it reserved itself. */
export async function storageRemaining(
  ctx: Pick<AppContext, 'db'> & Partial<Pick<AppContext, 'clock'>>,
  user: { id: string; plan: string },
  excludingReservation: string | null = null,
) {
  const limit = (await planLimits(ctx, user.plan)).storageBytes;
  const used = await storageUsed(ctx, user.id, excludingReservation);
  return { limit, used, remaining: Math.max(0, limit - used) };
}

/** Throws InsufficientStorageError (available vs required) when `bytes` does not fit. */
export async function assertStorage(ctx: Pick<AppContext, 'db'>, user: { id: string; plan: string }, bytes: number) {
  const { remaining } = await storageRemaining(ctx, user);
  if (bytes > remaining) throw errors.insufficientStorage(remaining, bytes);
  return remaining;
}
