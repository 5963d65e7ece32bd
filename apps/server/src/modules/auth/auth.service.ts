import { ErrorCode, Messages, robotImageFor } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../platform/http/auth-context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId, newToken, sha256 } from '../../platform/ids.js';
import { escapeHtml } from '../../platform/mail/html.js';
import { apiKeyQueries } from '../api-keys/index.js';
import { userQueries, type UserRow } from '../users/index.js';
import { markDeleted } from '../users/users.service.js';
import { credentialCache, credentialTags, evictUser } from './auth.cache.js';
import { authRepository } from './auth.repository.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import { attempt, type Caller } from './throttle.service.js';

const VERIFY_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;

export type { Principal };

declare module '../../platform/http/auth-context.js' {
  // The request's principal carries the whole user row.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface PrincipalUser extends UserRow {}
}

export const verificationRequired = (ctx: AppContext) => ctx.mailer.enabled;

function deletedError() {
  return new AppError(403, ErrorCode.AccountDeleted, Messages.accountDeleted);
}

function disabledError() {
  return new AppError(403, ErrorCode.AccountDisabled, 'This account has been disabled by an administrator.');
}

/** Does this invite link (its team and token) open an invite sent to `email`? Then it proves the address. */
export const inviteProvesAddress = (ctx: AppContext, link: { team: string; token: string }, email: string) =>
  authRepository.openInviteTo(ctx.db, link.team, sha256(link.token), email, ctx.clock.now());

/**
 * Creates the account; the first account of an empty instance becomes an admin. `addressProven`:
 * the sign-up came with an invite link sent to this address, which proves it as a verification
 * link would (no verification mail).
 */
export async function signUp(
  ctx: AppContext,
  input: { email: string; password: string; username: string; firstName: string },
  origin?: string | null,
  addressProven = false,
) {
  const passwordHash = await hashPassword(input.password, ctx.config.passwordHashCost);
  const user = await ctx.db.transaction(async (tx) => {
    // Serialises sign-ups so exactly one "first account" becomes admin.
    await authRepository.lockSignUps(tx);
    if (await userQueries.byEmail(tx, input.email)) throw errors.conflict(ErrorCode.InUse, 'This email address is already in use');
    if (await userQueries.byUsername(tx, input.username)) throw errors.conflict(ErrorCode.UsernameInUse, 'This username is already taken');
    const first = (await userQueries.count(tx)) === 0;
    const row = await userQueries.insert(tx, {
      id: newId(),
      email: input.email,
      username: input.username,
      firstName: input.firstName,
      passwordHash,
      image: robotImageFor(input.email),
      roles: first ? ['admin'] : [],
      ...(addressProven ? { emailVerifiedAt: ctx.clock.now() } : {}),
      createdAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    });
    await userQueries.insertSettings(tx, row.id);
    return row;
  });
  await ctx.events.emit('user.signedUp', user.id, { userId: user.id, provider: 'password' });
  if (verificationRequired(ctx) && !addressProven) await sendVerification(ctx, user, origin);
  return user;
}

/** Password sign-in; wrong passwords count against the account and the IP (throttle.service.ts), and a blocked caller gets 429 even with the right one. */
export async function signIn(ctx: AppContext, email: string, password: string, caller: Caller = { ip: null }) {
  // Counted before the check, so parallel guesses cannot all slip in before the first failure lands.
  const counted = await attempt(ctx, 'signin', { ...caller, account: email });
  const user = await userQueries.byEmail(ctx.db, email);
  if (!user) {
    await burnPasswordCheck(password, ctx.config.passwordHashCost);
    throw errors.unauthorized('Wrong email or password', ErrorCode.InvalidCredentials);
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw errors.unauthorized('Wrong email or password', ErrorCode.InvalidCredentials);
  await counted.undo();
  if (user.deletedAt) throw deletedError();
  if (user.disabledAt) throw disabledError();
  if (verificationRequired(ctx) && !user.emailVerifiedAt) {
    throw new AppError(403, ErrorCode.EmailNotVerified, 'Verify your email address first: we sent you a link. You can ask for a new one.');
  }
  await ctx.events.emit('user.signedIn', user.id, { userId: user.id, provider: 'password' });
  return user;
}

export async function createSession(ctx: AppContext, userId: string, userAgent?: string) {
  const token = newToken();
  const now = ctx.clock.now();
  await authRepository.insertSession(ctx.db, {
    id: newId(),
    tokenHash: sha256(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.sessionTtlMs),
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  await userQueries.update(ctx.db, userId, { lastLoginAt: now });
  return token;
}

export async function endSession(ctx: AppContext, sessionId: string, userId?: string) {
  await authRepository.deleteSession(ctx.db, sessionId);
  if (userId) evictUser(ctx, userId);
}

export async function endAllSessions(ctx: AppContext, userId: string) {
  await authRepository.deleteSessionsOf(ctx.db, userId);
  evictUser(ctx, userId);
}

/** A session token → its user: from the per-instance cache (auth.cache.ts), else one query. */
export async function resolveSession(ctx: AppContext, token: string): Promise<Principal | null> {
  const now = ctx.clock.now().getTime();
  const hash = sha256(token);
  const cache = credentialCache(ctx);
  let hit = cache.get(`s:${hash}`);
  if (!hit) {
    const since = cache.mark();
    const row = await authRepository.sessionWithUser(ctx.db, hash, new Date(now));
    if (!row) return null;
    if (row.user.deletedAt || row.user.disabledAt) {
      await endSession(ctx, row.session.id, row.user.id);
      return null;
    }
    hit = {
      principal: { user: row.user, via: 'session', sessionId: row.session.id },
      expiresAt: row.session.expiresAt.getTime(),
      touchedAt: row.session.lastSeenAt.getTime(),
    };
    cache.set(`s:${hash}`, hit, credentialTags(row.user.id), since);
  } else if (hit.expiresAt <= now) {
    cache.delete(`s:${hash}`);
    return null;
  }
  if (now - hit.touchedAt > 60_000) {
    hit.touchedAt = now;
    await authRepository.touchSession(ctx.db, hit.principal.sessionId!, new Date(now));
  }
  return hit.principal;
}

/** An API key (either spelling) → its owner: from the per-instance cache, else one query. */
export async function resolveApiKey(ctx: AppContext, presented: string): Promise<Principal | null> {
  const secret = parseApiKey(presented);
  if (!secret) return null;
  const hash = sha256(secret);
  const cache = credentialCache(ctx);
  let hit = cache.get(`k:${hash}`);
  if (!hit) {
    const since = cache.mark();
    const row = await apiKeyQueries.activeWithUser(ctx.db, hash);
    if (!row || row.user.deletedAt || row.user.disabledAt) return null;
    hit = {
      principal: { user: row.user, via: 'api-key', apiKeyId: row.key.id, scope: row.key.scope ?? null },
      expiresAt: Infinity,
      touchedAt: row.key.lastUsedAt?.getTime() ?? -Infinity,
    };
    cache.set(`k:${hash}`, hit, credentialTags(row.user.id), since);
  }
  const now = ctx.clock.now().getTime();
  if (now - hit.touchedAt > 60_000) {
    hit.touchedAt = now;
    await apiKeyQueries.touch(ctx.db, hit.principal.apiKeyId!, new Date(now));
  }
  return hit.principal;
}

/** Both spellings carry the same 40-hex secret: `ul_<hex>` (current) and `ul<hex>` (legacy). */
export function parseApiKey(value: string): string | null {
  const m = /^ul_?([0-9a-f]{40})$/.exec(value.trim());
  return m ? m[1]! : null;
}

async function issueMailToken(ctx: AppContext, user: UserRow, purpose: 'verify' | 'reset', ttlMs: number) {
  const token = newToken();
  const now = ctx.clock.now();
  await authRepository.insertMailToken(ctx.db, {
    id: newId(),
    tokenHash: sha256(token),
    userId: user.id,
    purpose,
    email: user.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return token;
}

async function sendVerification(ctx: AppContext, user: UserRow, origin?: string | null) {
  const token = await issueMailToken(ctx, user, 'verify', VERIFY_TTL_MS);
  const link = `${ctx.baseUrl(origin ?? undefined)}/v1/auth/verify?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Verify your email for Sightline',
    text: `Hi ${user.firstName},\n\nConfirm your email address to finish signing up:\n\n${link}\n\nThe link is valid for 48 hours.\n`,
    html: `<p>Hi ${escapeHtml(user.firstName)},</p><p>Confirm your email address to finish signing up:</p><p><a href="${link}">Verify email</a></p><p>The link is valid for 48 hours.</p>`,
  });
}

export async function resendVerification(ctx: AppContext, email: string, caller: Caller = { ip: null }, origin?: string | null) {
  // Counted whether or not the account exists, so the limit tells nothing about accounts either.
  await attempt(ctx, 'verify', { ...caller, account: email });
  const user = await userQueries.byEmail(ctx.db, email);
  // Same answer whether or not the account exists: no account enumeration.
  if (!user || user.emailVerifiedAt || user.deletedAt || !verificationRequired(ctx)) return;
  await sendVerification(ctx, user, origin);
}

/** A reset or verification token: tries count per client address (throttle.service.ts); a good one is taken back. */
async function consumeMailToken(ctx: AppContext, token: string, purpose: 'verify' | 'reset', caller: Caller) {
  const counted = await attempt(ctx, 'mailtoken', { ip: caller.ip });
  const row = await readMailToken(ctx, token, purpose);
  await counted.undo();
  return row;
}

async function readMailToken(ctx: AppContext, token: string, purpose: 'verify' | 'reset') {
  const now = ctx.clock.now();
  const row = await authRepository.mailTokenByHash(ctx.db, sha256(token));
  if (!row || row.purpose !== purpose || row.usedAt) {
    throw new AppError(400, ErrorCode.InvalidToken, 'This link is invalid or has already been used');
  }
  if (row.expiresAt <= now) throw new AppError(400, ErrorCode.ExpiredToken, 'This link has expired: ask for a new one');
  // Marking used with a guard makes a double submit lose the race cleanly.
  if (!(await authRepository.useMailToken(ctx.db, row.id, now)))
    throw new AppError(400, ErrorCode.InvalidToken, 'This link is invalid or has already been used');
  return row;
}

export async function verifyEmail(ctx: AppContext, token: string, caller: Caller = { ip: null }) {
  const row = await consumeMailToken(ctx, token, 'verify', caller);
  const user = await userQueries.byId(ctx.db, row.userId);
  if (!user || user.email !== row.email) throw new AppError(400, ErrorCode.InvalidToken, 'This link is no longer valid for this account');
  return (await userQueries.update(ctx.db, user.id, { emailVerifiedAt: ctx.clock.now(), updatedAt: ctx.clock.now() }))!;
}

/** The reset mail; its link starts with PUBLIC_URL, else with `origin`, the one the browser used (ADR 0018). */
export async function requestPasswordReset(ctx: AppContext, email: string, caller: Caller = { ip: null }, origin?: string | null) {
  await attempt(ctx, 'reset', { ...caller, account: email });
  const user = await userQueries.byEmail(ctx.db, email);
  if (!user || user.deletedAt) return;
  const token = await issueMailToken(ctx, user, 'reset', RESET_TTL_MS);
  const link = `${ctx.baseUrl(origin ?? undefined)}/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your Sightline password',
    text: `Hi ${user.firstName},\n\nSomeone asked to reset the password of your account. Choose a new one here:\n\n${link}\n\nThe link is valid for 1 hour. If it was not you, ignore this mail.\n`,
    html: `<p>Hi ${escapeHtml(user.firstName)},</p><p>Choose a new password: <a href="${link}">Reset password</a></p><p>The link is valid for 1 hour.</p>`,
  });
}

export async function resetPassword(ctx: AppContext, token: string, password: string, caller: Caller = { ip: null }) {
  const passwordHash = await hashPassword(password, ctx.config.passwordHashCost);
  const row = await consumeMailToken(ctx, token, 'reset', caller);
  const now = ctx.clock.now();
  // Following the mailed link proves the address, so it also verifies it.
  await userQueries.update(ctx.db, row.userId, { passwordHash, updatedAt: now, emailVerifiedAt: now });
  await endAllSessions(ctx, row.userId);
  await ctx.events.emit('user.passwordChanged', row.userId, { userId: row.userId, via: 'reset' });
}

/** The current password asked again: wrong ones count per account and client address (throttle.service.ts), a right one is taken back. */
async function checkCurrentPassword(ctx: AppContext, user: UserRow, password: string, caller: Caller, wrong: string) {
  const counted = await attempt(ctx, 'password', { ip: caller.ip, account: `user:${user.id}` });
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError(400, ErrorCode.WrongPassword, wrong);
  await counted.undo();
}

export async function updatePassword(
  ctx: AppContext,
  user: UserRow,
  currentPassword: string,
  newPassword: string,
  keepSessionId?: string,
  caller: Caller = { ip: null },
) {
  await checkCurrentPassword(ctx, user, currentPassword, caller, 'The current password is wrong');
  const passwordHash = await hashPassword(newPassword, ctx.config.passwordHashCost);
  await userQueries.update(ctx.db, user.id, { passwordHash, updatedAt: ctx.clock.now() });
  // Other sessions end: a password change is how people lock out a stolen session.
  await authRepository.deleteSessionsOf(ctx.db, user.id, keepSessionId);
  evictUser(ctx, user.id);
  await ctx.events.emit('user.passwordChanged', user.id, { userId: user.id });
}

/** Email change (spec §5): only when different, with re-authentication. */
export async function changeEmail(
  ctx: AppContext,
  user: UserRow | null,
  email: string,
  password: string,
  origin?: string | null,
  caller: Caller = { ip: null },
) {
  if (!user?.id) throw new AppError(400, ErrorCode.NoUserId, 'No user id available');
  if (email === user.email) throw new AppError(400, ErrorCode.SameEmail, 'This is already your email address');
  if (user.passwordHash) await checkCurrentPassword(ctx, user, password, caller, 'The password is wrong');
  try {
    const updated = await ctx.db.transaction(async (tx) => {
      const taken = await userQueries.byEmail(tx, email);
      if (taken) throw errors.conflict(ErrorCode.InUse, 'This email address is already in use');
      return userQueries.update(tx, user.id, {
        email,
        emailVerifiedAt: verificationRequired(ctx) ? null : user.emailVerifiedAt,
        updatedAt: ctx.clock.now(),
      });
    });
    if (!updated) throw new AppError(400, ErrorCode.NoUserId, 'No user id available');
    evictUser(ctx, user.id);
    await ctx.events.emit('user.emailChanged', user.id, { userId: user.id });
    if (verificationRequired(ctx)) await sendVerification(ctx, updated, origin);
    return updated;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === '23505') throw errors.conflict(ErrorCode.InUse, 'This email address is already in use');
    // A unique-index race or a storage failure: the spec's catch-all code.
    throw new AppError(500, ErrorCode.Unknown, 'Unable to change the email address');
  }
}

/** Account deletion (spec §4): soft, sessions end, restorable by an admin during the grace period. */
export async function deleteAccount(ctx: AppContext, user: UserRow, password: string | undefined, caller: Caller = { ip: null }) {
  if (user.passwordHash) await checkCurrentPassword(ctx, user, password ?? '', caller, 'Enter your password to delete the account');
  await markDeleted(ctx, user.id);
  await endAllSessions(ctx, user.id);
  await ctx.events.emit('user.deleted', user.id, { userId: user.id });
}
