import { ErrorCode } from '@sightline/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { sign, verify } from '../../platform/security/signing.js';
import { throttleRepository } from './throttle.repository.js';

/**
 * The throttle policy of every secret check (ADR 0014, ADR 0024), kept in PostgreSQL so every
 * instance sees the same counts: per subject a fixed window; going over the limit blocks the subject
 * (429 with Retry-After) for the block time, doubled on each further strike up to an hour. While
 * blocked, even the right secret is refused. Every row stays as the admins' record of repeated
 * failures.
 *
 * Sign-in slows an attacker without locking the real user out: wrong passwords count per account
 * and client (small limit, short blocks that double: progressive delays), per account (a larger
 * limit, against guesses spread over many addresses) and per client address. A browser that signed
 * in to the account before carries a signed device cookie and counts only against that device, so
 * what others do to the account cannot block it.
 */
export type ThrottleKind = 'signin' | 'reset' | 'verify' | 'apikey' | 'password' | 'mailtoken' | 'agenttoken';
export type ThrottleScope = 'account' | 'ip' | 'accountClient' | 'device';

interface Rule {
  windowMs: number;
  limit: number;
  blockMs: number;
}
const SECOND = 1000;
const MINUTE = 60_000;
const MAX_BLOCK_MS = 3_600_000;

/** Failures (secrets) or requests (mails) allowed per window; the next one starts a block. */
export const THROTTLE_RULES: Record<ThrottleKind, Partial<Record<ThrottleScope, Rule>>> = {
  signin: {
    accountClient: { windowMs: 15 * MINUTE, limit: 3, blockMs: 5 * SECOND },
    account: { windowMs: 15 * MINUTE, limit: 30, blockMs: MINUTE },
    ip: { windowMs: MINUTE, limit: 50, blockMs: MINUTE },
    device: { windowMs: 15 * MINUTE, limit: 5, blockMs: 5 * SECOND },
  },
  reset: { account: { windowMs: 15 * MINUTE, limit: 5, blockMs: 15 * MINUTE }, ip: { windowMs: 15 * MINUTE, limit: 30, blockMs: 15 * MINUTE } },
  verify: { account: { windowMs: 15 * MINUTE, limit: 5, blockMs: 15 * MINUTE }, ip: { windowMs: 15 * MINUTE, limit: 30, blockMs: 15 * MINUTE } },
  apikey: { account: { windowMs: MINUTE, limit: 20, blockMs: MINUTE }, ip: { windowMs: MINUTE, limit: 20, blockMs: MINUTE } },
  /** the current password asked again to change the password or email or to delete the account (per signed-in account) */
  password: { account: { windowMs: 15 * MINUTE, limit: 5, blockMs: 15 * MINUTE }, ip: { windowMs: 15 * MINUTE, limit: 20, blockMs: 15 * MINUTE } },
  /** reset and verification links (their tokens) tried */
  mailtoken: { ip: { windowMs: 15 * MINUTE, limit: 20, blockMs: 15 * MINUTE } },
  /** x-agent-token of the GPU agents */
  agenttoken: { ip: { windowMs: MINUTE, limit: 20, blockMs: MINUTE } },
};

const MESSAGES: Record<ThrottleKind, string> = {
  signin: 'Too many sign-in attempts',
  reset: 'Too many password reset requests',
  verify: 'Too many verification mails requested',
  apikey: 'Too many requests with an invalid API key',
  password: 'Too many wrong passwords',
  mailtoken: 'Too many invalid or used links',
  agenttoken: 'Too many requests with an invalid agent token',
};

export interface Caller {
  /** the account the attempt names (email, lower-cased, or a user id), when there is one */
  account?: string | null;
  ip: string | null;
  /** a device that signed in to `account` before (its verified device cookie): it counts on its own */
  device?: string | null;
}

const subjects = (kind: ThrottleKind, caller: Caller): Array<{ scope: ThrottleScope; subject: string }> => {
  const account = caller.account?.trim().toLowerCase() || null;
  const rules = THROTTLE_RULES[kind];
  if (caller.device && account && rules.device) return [{ scope: 'device', subject: `device:${caller.device}|account:${account}` }];
  return [
    ...(account && caller.ip && rules.accountClient ? [{ scope: 'accountClient' as const, subject: `account:${account}|ip:${caller.ip}` }] : []),
    ...(account && rules.account ? [{ scope: 'account' as const, subject: `account:${account}` }] : []),
    ...(caller.ip && rules.ip ? [{ scope: 'ip' as const, subject: `ip:${caller.ip}` }] : []),
  ];
};

function tooMany(kind: ThrottleKind, until: Date, now: Date) {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError(429, ErrorCode.RateLimited, `${MESSAGES[kind]}. Try again in ${retryAfter} s.`, { retryAfter });
}

/**
 * Counts one attempt of `kind` for each subject of the caller, atomically; throws 429 when one is
 * blocked, or when this attempt goes over the limit (it starts the block). `undo` takes the attempt
 * back once it proved legitimate (a right password), so only failures accumulate.
 */
export async function attempt(ctx: AppContext, kind: ThrottleKind, caller: Caller) {
  const now = ctx.clock.now();
  const counted: string[] = [];
  for (const { scope, subject } of subjects(kind, caller)) {
    const rule = THROTTLE_RULES[kind][scope]!;
    const row = await throttleRepository.hit(ctx.db, { kind, subject, now, ...rule, maxBlockMs: MAX_BLOCK_MS, ip: caller.ip });
    if (!row) {
      const blocked = await throttleRepository.get(ctx.db, kind, subject);
      const until = blocked?.blockedUntil ?? new Date(now.getTime() + rule.blockMs);
      remember(kind, subject, until);
      throw tooMany(kind, until, now);
    }
    if (row.blockedUntil && row.blockedUntil > now) {
      ctx.log.warn({ kind, scope, subject: scope === 'ip' ? subject : undefined, strikes: row.strikes }, 'auth throttle: blocked');
      remember(kind, subject, row.blockedUntil);
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

/**
 * Blocks this instance has seen (kind + subject → until), so a secret checked on every request (an
 * agent token) costs no query on the success path: only failures are counted in PostgreSQL.
 */
const knownBlocks = new Map<string, number>();
function remember(kind: ThrottleKind, subject: string, until: Date) {
  if (knownBlocks.size > 10_000) knownBlocks.clear();
  knownBlocks.set(`${kind}\n${subject}`, until.getTime());
}

/**
 * A secret sent with every request (agent tokens): refused with 429 while its caller is blocked
 * (as far as this instance knows); `check` answers the secret's row or null; a null counts one
 * failure (and may start the block) before `refusal` is thrown.
 */
export async function checkSecret<T>(ctx: AppContext, kind: ThrottleKind, caller: Caller, check: () => Promise<T | null>, refusal: () => Error): Promise<T> {
  const now = ctx.clock.now();
  for (const { subject } of subjects(kind, caller)) {
    const until = knownBlocks.get(`${kind}\n${subject}`);
    if (until && until > now.getTime()) throw tooMany(kind, new Date(until), now);
  }
  const found = await check();
  if (found) return found;
  await attempt(ctx, kind, caller);
  throw refusal();
}

export const DEVICE_COOKIE = 'sl_device';
const DEVICE_TTL_S = 365 * 86_400;
const normal = (email: string) => email.trim().toLowerCase();

/** The device that signed in to `email` before, from the request's signed device cookie; null when absent or not for this account. */
export function trustedDevice(ctx: Pick<AppContext, 'secret'>, request: FastifyRequest, email: string): string | null {
  const raw = request.cookies?.[DEVICE_COOKIE];
  const [id, sig] = (raw ?? '').split('.');
  if (!id || !sig || !/^[\w-]{16,64}$/.test(id)) return null;
  return verify(ctx.secret, 'device', [normal(email), id], sig) ? id : null;
}

/** After a successful sign-in: the browser is a known device of this account from now on (its id is kept across accounts). */
export function setDeviceCookie(ctx: Pick<AppContext, 'secret'>, request: FastifyRequest, reply: FastifyReply, email: string) {
  const kept = (request.cookies?.[DEVICE_COOKIE] ?? '').split('.')[0] ?? '';
  const id = /^[\w-]{16,64}$/.test(kept) ? kept : newId() + newId();
  reply.setCookie(DEVICE_COOKIE, `${id}.${sign(ctx.secret, 'device', [normal(email), id])}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/v1/auth',
    maxAge: DEVICE_TTL_S,
  });
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
