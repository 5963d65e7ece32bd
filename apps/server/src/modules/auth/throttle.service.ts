import { ErrorCode } from '@sightline/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { throttleRepository } from './throttle.repository.js';

/**
 * Brute-force and mail-flood limits (issue 16), kept in PostgreSQL so every instance sees the same
 * counts: per account and per IP, a fixed window; going over the limit blocks the subject (429 with
 * Retry-After) for the block time, doubled on each further strike up to an hour. While blocked, even
 * the right password is refused. Every row stays as the admins' record of repeated failures.
 */
export type ThrottleKind = 'signin' | 'reset' | 'verify' | 'apikey';

interface Rule {
  windowMs: number;
  limit: number;
  blockMs: number;
}
const MINUTE = 60_000;
const MAX_BLOCK_MS = 3_600_000;

/** Failures (sign-in, API key) or requests (mails) allowed per window; the next one starts a block. */
export const THROTTLE_RULES: Record<ThrottleKind, { account: Rule; ip: Rule }> = {
  signin: { account: { windowMs: MINUTE, limit: 10, blockMs: MINUTE }, ip: { windowMs: MINUTE, limit: 50, blockMs: MINUTE } },
  reset: { account: { windowMs: 15 * MINUTE, limit: 5, blockMs: 15 * MINUTE }, ip: { windowMs: 15 * MINUTE, limit: 30, blockMs: 15 * MINUTE } },
  verify: { account: { windowMs: 15 * MINUTE, limit: 5, blockMs: 15 * MINUTE }, ip: { windowMs: 15 * MINUTE, limit: 30, blockMs: 15 * MINUTE } },
  apikey: { account: { windowMs: MINUTE, limit: 20, blockMs: MINUTE }, ip: { windowMs: MINUTE, limit: 20, blockMs: MINUTE } },
};

const MESSAGES: Record<ThrottleKind, string> = {
  signin: 'Too many sign-in attempts',
  reset: 'Too many password reset requests',
  verify: 'Too many verification mails requested',
  apikey: 'Too many requests with an invalid API key',
};

export interface Caller {
  /** the account the attempt names (email, lower-cased), when there is one */
  account?: string | null;
  ip: string | null;
}

const subjects = (caller: Caller) => [
  ...(caller.account ? [{ scope: 'account' as const, subject: `account:${caller.account.trim().toLowerCase()}` }] : []),
  ...(caller.ip ? [{ scope: 'ip' as const, subject: `ip:${caller.ip}` }] : []),
];

function tooMany(kind: ThrottleKind, until: Date, now: Date) {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError(429, ErrorCode.RateLimited, `${MESSAGES[kind]}. Try again in ${retryAfter} s.`, { retryAfter });
}

/**
 * Counts one attempt of `kind` for the account and the IP, atomically; throws 429 when either is
 * blocked, or when this attempt goes over the limit (it starts the block). `undo` takes the attempt
 * back once it proved legitimate (a right password), so only failures accumulate.
 */
export async function attempt(ctx: AppContext, kind: ThrottleKind, caller: Caller) {
  const now = ctx.clock.now();
  const counted: string[] = [];
  for (const { scope, subject } of subjects(caller)) {
    const rule = THROTTLE_RULES[kind][scope];
    const row = await throttleRepository.hit(ctx.db, { kind, subject, now, ...rule, maxBlockMs: MAX_BLOCK_MS, ip: caller.ip });
    if (!row) {
      const blocked = await throttleRepository.get(ctx.db, kind, subject);
      throw tooMany(kind, blocked?.blockedUntil ?? new Date(now.getTime() + rule.blockMs), now);
    }
    if (row.blockedUntil && row.blockedUntil > now) {
      ctx.log.warn({ kind, scope, subject: scope === 'ip' ? subject : undefined, strikes: row.strikes }, 'auth throttle: blocked');
      throw tooMany(kind, row.blockedUntil, now);
    }
    counted.push(subject);
  }
  return {
    undo: async () => {
      for (const subject of counted) await throttleRepository.undo(ctx.db, kind, subject, ctx.clock.now());
    },
  };
}

/** The caller of a request, as far as throttling goes. */
export const callerOf = (request: FastifyRequest, account?: string | null): Caller => ({ account: account ?? null, ip: request.ip || null });

/**
 * onRequest hook, after credentials were resolved: a request whose API key did not resolve counts
 * against its IP, and from the 21st failure in a minute (and while blocked) they get 429 instead of 401. Requests with a valid
 * key are never slowed down (no extra query on the success path).
 */
export function apiKeyFailureGuard(ctx: AppContext) {
  return async (request: FastifyRequest) => {
    if (request.credentialError === 'api-key') await attempt(ctx, 'apikey', { ip: request.ip || null });
  };
}

/** Subjects with repeated failures, for admins: most recent first. */
export async function recentFailures(ctx: AppContext, limit = 200) {
  const now = ctx.clock.now();
  return (await throttleRepository.recent(ctx.db, limit)).map((r) => ({
    kind: r.kind as ThrottleKind,
    subject: r.subject,
    windowCount: r.count,
    total: r.total,
    strikes: r.strikes,
    blocked: Boolean(r.blockedUntil && r.blockedUntil > now),
    blockedUntil: r.blockedUntil?.toISOString() ?? null,
    lastAt: r.lastAt.toISOString(),
    lastIp: r.lastIp,
  }));
}
