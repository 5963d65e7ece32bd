import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { planLimits } from '../billing/billing.plans.js';
import { userQueries } from '../users/index.js';
import { storageRepository } from './storage.repository.js';

/**
 * Storage reservations (ADR 0014): an upload claims its bytes when it starts, under a
 * per-user lock, so parallel uploads can never together pass the quota; it settles (the item's
 * bytes are recorded, then the reservation goes) or releases when it ends. A reservation nobody
 * settles (a client that went away, a crashed instance) stops counting at its expiry.
 */

/** A request that streams its body holds its reservation at most this long. */
export const STREAM_RESERVATION_TTL_MS = 6 * 3600_000;
/** A resumable (tus) upload keeps its bytes this long after its last request. */
export const RESUMABLE_RESERVATION_TTL_MS = 24 * 3600_000;
/** What a multipart body's Content-Length may exceed its file by (boundaries, part headers, small fields). */
export const MULTIPART_SLACK_BYTES = 64 * 1024;
/** Bodies of unknown length reserve in steps of this size as they arrive. */
const STEP_BYTES = 8 * 1024 * 1024;

export interface ReserveInput {
  /** the reservation's id (the upload's id for tus); the same id grows or refreshes it */
  id: string;
  purpose: string;
  /** bytes wanted */
  bytes: number;
  /** fewer bytes that still do (a multipart body's length overstates its file by the part headers) */
  atLeast?: number;
  /** bytes that are freed when this upload lands (the file it replaces) */
  credit?: number;
  ttlMs: number;
}

/**
 * Reserves `bytes` (or as many as fit, down to `atLeast`) for the user, atomically; throws
 * InsufficientStorage (available vs required) when not even `atLeast` fits. Answers the bytes held.
 */
export async function reserveStorage(ctx: Pick<AppContext, 'db' | 'clock'>, user: { id: string; plan: string }, input: ReserveInput): Promise<number> {
  const limit = (await planLimits(ctx, user.plan)).storageBytes;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await storageRepository.lockUser(tx, user.id);
    await storageRepository.deleteExpired(tx, user.id, now);
    const used = await storageRepository.usedBytes(tx, user.id, now, input.id);
    const available = Math.max(0, limit - used + (input.credit ?? 0));
    const need = Math.min(input.atLeast ?? input.bytes, input.bytes);
    if (need > available) throw errors.insufficientStorage(available, need);
    const bytes = Math.min(input.bytes, available);
    await storageRepository.upsertReservation(tx, {
      id: input.id,
      userId: user.id,
      bytes,
      purpose: input.purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.ttlMs),
    });
    return bytes;
  });
}

/** Keeps a live reservation from expiring; false when it already expired (the caller must reserve again). */
export async function extendReservation(ctx: Pick<AppContext, 'db' | 'clock'>, id: string, ttlMs: number) {
  const now = ctx.clock.now();
  return storageRepository.extendReservation(ctx.db, id, now, new Date(now.getTime() + ttlMs));
}

/** Settles or releases: the upload's bytes now count through its item, or nothing was kept. */
export async function releaseStorage(ctx: Pick<AppContext, 'db'>, id: string) {
  await storageRepository.deleteReservation(ctx.db, id);
}

/**
 * The reservation of one streamed body: `start` claims the declared length (or a first step),
 * `cover(seen)` grows it as bytes arrive beyond it, `release` ends it. `limit` is what the body may
 * reach without asking again.
 */
export class StreamReservation {
  readonly id = newId();
  held = 0;
  private readonly declared: boolean;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'clock'>,
    private readonly user: { id: string; plan: string },
    private readonly purpose: string,
    private readonly opts: { expectedBytes?: number; slack?: number; credit?: number; maxBytes: number },
  ) {
    this.declared = opts.expectedBytes !== undefined && Number.isFinite(opts.expectedBytes) && opts.expectedBytes >= 0;
  }

  async start() {
    const want = this.declared ? Math.min(this.opts.expectedBytes!, this.opts.maxBytes) : Math.min(STEP_BYTES, this.opts.maxBytes);
    const atLeast = this.declared ? Math.max(0, want - (this.opts.slack ?? 0)) : 0;
    this.held = await this.reserve(want, atLeast);
  }

  /** Makes sure `seen` bytes are covered; throws InsufficientStorage when they cannot be. */
  async cover(seen: number) {
    if (seen <= this.held) return;
    this.held = await this.reserve(Math.min(this.opts.maxBytes, Math.max(seen, this.held + STEP_BYTES)), seen);
  }

  release() {
    return releaseStorage(this.ctx, this.id);
  }

  private reserve(bytes: number, atLeast: number) {
    return reserveStorage(this.ctx, this.user, {
      id: this.id,
      purpose: this.purpose,
      bytes,
      atLeast,
      credit: this.opts.credit,
      ttlMs: STREAM_RESERVATION_TTL_MS,
    });
  }
}

/**
 * A resumable upload's reservation (the tus upload id), for a user known by id: made at creation,
 * refreshed by each request while it lives, made again (if the bytes still fit) once it expired.
 */
export async function reserveResumable(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string, uploadId: string, bytes: number) {
  if (await extendReservation(ctx, uploadId, RESUMABLE_RESERVATION_TTL_MS)) return;
  const user = await userQueries.byId(ctx.db, userId);
  await reserveStorage(
    ctx,
    { id: userId, plan: user?.plan ?? 'free' },
    { id: uploadId, purpose: 'dataset-upload', bytes, ttlMs: RESUMABLE_RESERVATION_TTL_MS },
  );
}
