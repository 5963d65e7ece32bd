import type { AppContext } from '../../context.js';
import { inferenceRepository } from './inference.repository.js';
import { planLimits } from '../billing/billing.plans.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the hourly window resets. */
  reset: number;
  retryAfter: number;
  window: 'hour' | 'month';
}

const hourBucket = (d: Date) => `h:${d.toISOString().slice(0, 13)}`;
const monthBucket = (d: Date) => `m:${d.toISOString().slice(0, 7)}`;

/**
 * Calls admitted on this instance from what it knows, before the count must go to the database;
 * also the bound on going over a plan limit: with N instances serving one user, at most
 * (N − 1) × BATCH calls beyond it (one instance: never). ADR 0017.
 */
export const QUOTA_BATCH = 32;
/** Counts admitted in memory are written at least this often. */
export const QUOTA_FLUSH_MS = 500;

interface UserMeter {
  hb: string;
  mb: string;
  /** the database's counts as of this instance's last round trip (its written calls included) */
  hour: number;
  month: number;
  /** admitted here, not written yet (per API key; '' = session calls) */
  pending: number;
  pendingByKey: Map<string, number>;
  /** being written */
  inflight: number;
  usedAt: number;
}

/**
 * Shared-inference quota per plan (product notes): N calls per hour and per month, counted per user
 * (and per API key, for the usage table in settings). A user's first call in a window on this
 * instance is counted and checked in the database (one upsert per window, as before); the next
 * calls are admitted from memory while the database's count plus this instance's unwritten calls
 * stays within the limit and fewer than QUOTA_BATCH calls are unwritten. Unwritten calls go to the
 * database in one statement every QUOTA_FLUSH_MS, when QUOTA_BATCH is reached (that call then waits
 * for the database's answer), before usage is read, and on shutdown.
 */
export class QuotaMeter {
  private readonly users = new Map<string, UserMeter>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly ctx: AppContext) {
    this.timer = setInterval(() => void this.flushAll().catch((err) => ctx.log.warn({ err }, 'inference usage write failed')), QUOTA_FLUSH_MS);
    this.timer.unref();
  }

  /**
   * `onWait` is called when the decision has to wait for the database (a new window's first call, a full batch),
   * just before it does, so the caller can use the round trip (the predict route decodes the image meanwhile, ADR
   * 0041); a decision from memory does not call it.
   */
  async consume(user: { id: string; plan: string }, apiKeyId: string | null, onWait?: () => void): Promise<RateDecision> {
    const now = this.ctx.clock.now();
    const limits = await planLimits(this.ctx, user.plan);
    const hb = hourBucket(now);
    const mb = monthBucket(now);
    const key = apiKeyId ?? '';
    let m = this.users.get(user.id);
    if (m && (m.hb !== hb || m.mb !== mb)) {
      // A new window: what was counted in the old one is written under the old buckets.
      onWait?.();
      onWait = undefined;
      await this.flush(user.id, m);
      if (this.users.get(user.id) === m) this.users.delete(user.id);
      m = undefined;
    }
    const window = {
      hourEnd: Math.floor(now.getTime() / 3600_000 + 1) * 3600,
      monthEnd: Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000),
      nowS: Math.floor(now.getTime() / 1000),
    };
    if (m) {
      m.usedAt = performance.now();
      const unwritten = m.pending + m.inflight;
      const hour = m.hour + unwritten + 1;
      const month = m.month + unwritten + 1;
      // Counts only grow within a window, so a refusal from what we know is final.
      if (hour > limits.inferencePerHour || month > limits.inferencePerMonth) return refusal(limits, month, window);
      if (unwritten < QUOTA_BATCH) {
        m.pending += 1;
        m.pendingByKey.set(key, (m.pendingByKey.get(key) ?? 0) + 1);
        return {
          allowed: true,
          limit: limits.inferencePerHour,
          remaining: Math.max(0, limits.inferencePerHour - hour),
          reset: window.hourEnd,
          retryAfter: 0,
          window: 'hour',
        };
      }
    }
    // First call of the window here, or a full batch: this call waits for the database's count.
    let counted = this.users.get(user.id);
    if (!counted || counted.hb !== hb || counted.mb !== mb) {
      const old = counted;
      counted = { hb, mb, hour: 0, month: 0, pending: 0, pendingByKey: new Map<string, number>(), inflight: 0, usedAt: performance.now() };
      this.users.set(user.id, counted);
      if (old?.pending) void this.flush(user.id, old).catch((err) => this.ctx.log.warn({ err }, 'inference usage write failed'));
    }
    counted.pending += 1;
    counted.pendingByKey.set(key, (counted.pendingByKey.get(key) ?? 0) + 1);
    onWait?.();
    const { hour, month } = await this.write(user.id, counted);
    if (hour <= limits.inferencePerHour && month <= limits.inferencePerMonth) {
      return {
        allowed: true,
        limit: limits.inferencePerHour,
        remaining: Math.max(0, limits.inferencePerHour - hour),
        reset: window.hourEnd,
        retryAfter: 0,
        window: 'hour',
      };
    }
    // Over the quota: a refused call does not count, so take it back (rare path).
    await inferenceRepository.uncountCall(this.ctx.db, user.id, key, hb, mb);
    counted.hour -= 1;
    counted.month -= 1;
    return refusal(limits, month, window);
  }

  /** Writes this user's unwritten calls (before their usage is read). */
  async flushUser(userId: string): Promise<void> {
    const m = this.users.get(userId);
    if (m) await this.flush(userId, m);
  }

  async flushAll(): Promise<void> {
    const idleBefore = performance.now() - 3600_000;
    for (const [userId, m] of this.users) {
      if (m.pending) await this.flush(userId, m);
      else if (!m.inflight && m.usedAt < idleBefore) this.users.delete(userId);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushAll();
  }

  private async flush(userId: string, m: UserMeter): Promise<void> {
    if (m.pending) await this.write(userId, m);
  }

  /** Moves the unwritten calls to the database in one statement; the counts it answers become what we know. */
  private async write(userId: string, m: UserMeter): Promise<{ hour: number; month: number }> {
    const calls = m.pending;
    const perKey = [...m.pendingByKey];
    m.pending = 0;
    m.pendingByKey = new Map();
    m.inflight += calls;
    try {
      const counts = await inferenceRepository.addCalls(this.ctx.db, userId, m.hb, m.mb, calls, perKey);
      m.hour = Math.max(m.hour, counts.hour);
      m.month = Math.max(m.month, counts.month);
      return counts;
    } catch (err) {
      // Not written: kept for the next write.
      m.pending += calls;
      for (const [k, n] of perKey) m.pendingByKey.set(k, (m.pendingByKey.get(k) ?? 0) + n);
      throw err;
    } finally {
      m.inflight -= calls;
    }
  }
}

function refusal(
  limits: { inferencePerHour: number; inferencePerMonth: number },
  month: number,
  w: { hourEnd: number; monthEnd: number; nowS: number },
): RateDecision {
  if (month > limits.inferencePerMonth) {
    return { allowed: false, limit: limits.inferencePerMonth, remaining: 0, reset: w.monthEnd, retryAfter: Math.max(1, w.monthEnd - w.nowS), window: 'month' };
  }
  return { allowed: false, limit: limits.inferencePerHour, remaining: 0, reset: w.hourEnd, retryAfter: Math.max(1, w.hourEnd - w.nowS), window: 'hour' };
}

/** Usage this month, per API key (browser calls count under "web"). */
export async function monthlyUsage(ctx: AppContext, user: { id: string; plan: string }, meter?: QuotaMeter) {
  await meter?.flushUser(user.id);
  const now = ctx.clock.now();
  const bucket = monthBucket(now);
  const rows = await inferenceRepository.usageIn(ctx.db, user.id, bucket);
  const total = rows.find((r) => r.apiKeyId === '')?.count ?? 0;
  const limits = await planLimits(ctx, user.plan);
  const perKey = rows
    .filter((r) => r.apiKeyId !== '')
    .map((r) => ({ apiKeyId: r.apiKeyId, name: r.name ?? 'revoked key', prefix: r.prefix ?? '', count: r.count }));
  const viaKeys = perKey.reduce((a, r) => a + r.count, 0);
  return {
    month: bucket.slice(2),
    total,
    limits: { perHour: limits.inferencePerHour, perMonth: limits.inferencePerMonth },
    perKey: [...perKey, ...(total - viaKeys > 0 ? [{ apiKeyId: null, name: 'Web app (session)', prefix: '', count: total - viaKeys }] : [])],
  };
}
