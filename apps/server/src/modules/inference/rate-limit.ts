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
 * Shared-inference quota per plan (product notes): N calls per hour and per month, counted per user
 * (and per API key, for the usage table in settings). Counting and checking happen in one upsert per
 * window, so concurrent calls cannot overshoot.
 */
export async function consumeInference(ctx: AppContext, user: { id: string; plan: string }, apiKeyId: string | null): Promise<RateDecision> {
  const now = ctx.clock.now();
  const limits = await planLimits(ctx, user.plan);
  const hourEnd = Math.floor(now.getTime() / 3600_000 + 1) * 3600;
  const monthEnd = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
  const hb = hourBucket(now);
  const mb = monthBucket(now);
  const key = apiKeyId ?? '';
  // One round trip on the hot path: count this call in the hour, the month and the key's month.
  const { hour, month } = await inferenceRepository.countCall(ctx.db, user.id, key, hb, mb);
  if (hour <= limits.inferencePerHour && month <= limits.inferencePerMonth) {
    return { allowed: true, limit: limits.inferencePerHour, remaining: Math.max(0, limits.inferencePerHour - hour), reset: hourEnd, retryAfter: 0, window: 'hour' };
  }
  // Over the quota: a refused call does not count, so take it back (rare path).
  await inferenceRepository.uncountCall(ctx.db, user.id, key, hb, mb);
  const nowS = Math.floor(now.getTime() / 1000);
  if (month > limits.inferencePerMonth) {
    return { allowed: false, limit: limits.inferencePerMonth, remaining: 0, reset: monthEnd, retryAfter: Math.max(1, monthEnd - nowS), window: 'month' };
  }
  return { allowed: false, limit: limits.inferencePerHour, remaining: 0, reset: hourEnd, retryAfter: Math.max(1, hourEnd - nowS), window: 'hour' };
}

/** Usage this month, per API key (browser calls count under "web"). */
export async function monthlyUsage(ctx: AppContext, user: { id: string; plan: string }) {
  const now = ctx.clock.now();
  const bucket = monthBucket(now);
  const rows = await inferenceRepository.usageIn(ctx.db, user.id, bucket);
  const total = rows.find((r) => r.apiKeyId === '')?.count ?? 0;
  const limits = await planLimits(ctx, user.plan);
  const perKey = rows.filter((r) => r.apiKeyId !== '').map((r) => ({ apiKeyId: r.apiKeyId, name: r.name ?? 'revoked key', prefix: r.prefix ?? '', count: r.count }));
  const viaKeys = perKey.reduce((a, r) => a + r.count, 0);
  return {
    month: bucket.slice(2),
    total,
    limits: { perHour: limits.inferencePerHour, perMonth: limits.inferencePerMonth },
    perKey: [...perKey, ...(total - viaKeys > 0 ? [{ apiKeyId: null, name: 'Web app (session)', prefix: '', count: total - viaKeys }] : [])],
  };
}
