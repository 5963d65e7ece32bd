import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { track } from '../analytics/analytics.service.js';
import { endAllSessions } from '../auth/auth.service.js';
import { verifyPassword } from '../auth/passwords.js';
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
  await track(ctx, user.id, 'update_profile', { fields: Object.keys(patch) });
  await publishUser(ctx, updated);
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
  return updated!;
}

export async function setProfileImage(ctx: AppContext, user: UserRow, url: string) {
  const updated = await usersRepository.update(ctx.db, user.id, { image: url, updatedAt: ctx.clock.now() });
  await track(ctx, user.id, 'update_profile', { fields: ['image'] });
  await publishUser(ctx, updated!);
  return updated!;
}

/** Account deletion (spec §4): soft, sessions end, restorable by an admin during the grace period. */
export async function deleteAccount(ctx: AppContext, user: UserRow, password: string | undefined) {
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, password ?? ''))) {
    throw new AppError(400, ErrorCode.WrongPassword, 'Enter your password to delete the account');
  }
  await usersRepository.update(ctx.db, user.id, { deletedAt: ctx.clock.now() });
  await endAllSessions(ctx, user.id);
  await ctx.bus.publish(`user:${user.id}`, 'user.deleted', { id: user.id });
}

export async function restoreAccount(ctx: AppContext, userId: string, graceDays: number) {
  const user = await usersRepository.byId(ctx.db, userId);
  if (!user) throw errors.notFound('User');
  if (!user.deletedAt) return user;
  if (ctx.clock.now().getTime() - user.deletedAt.getTime() > graceDays * 86_400_000) {
    throw errors.conflict('error/grace-period-over', 'The grace period for restoring this account is over');
  }
  return (await usersRepository.update(ctx.db, userId, { deletedAt: null }))!;
}

async function publishUser(ctx: AppContext, row: UserRow) {
  const { presentUser } = await import('./users.presenter.js');
  await ctx.bus.publish(`user:${row.id}`, 'user.updated', presentUser(row));
}
