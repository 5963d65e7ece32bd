import { and, eq, sql } from 'drizzle-orm';
import { PLAN_LIMITS, type Plan } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { apiKeys, inferenceUsage } from '../../platform/db/schema.js';

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
  const limits = PLAN_LIMITS[(user.plan as Plan) in PLAN_LIMITS ? (user.plan as Plan) : 'free'];
  const hourEnd = Math.floor(now.getTime() / 3600_000 + 1) * 3600;
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const bump = async (bucket: string, keyId: string) => {
    const [row] = await ctx.db
      .insert(inferenceUsage)
      .values({ userId: user.id, apiKeyId: keyId, bucket, count: 1 })
      .onConflictDoUpdate({ target: [inferenceUsage.userId, inferenceUsage.apiKeyId, inferenceUsage.bucket], set: { count: sql`${inferenceUsage.count} + 1` } })
      .returning({ count: inferenceUsage.count });
    return row!.count;
  };
  const usedHour = await currentCount(ctx, user.id, hourBucket(now));
  const usedMonth = await currentCount(ctx, user.id, monthBucket(now));
  if (usedMonth >= limits.inferencePerMonth) {
    const retry = Math.ceil((monthStart.getTime() - now.getTime()) / 1000);
    return { allowed: false, limit: limits.inferencePerMonth, remaining: 0, reset: Math.floor(monthStart.getTime() / 1000), retryAfter: retry, window: 'month' };
  }
  if (usedHour >= limits.inferencePerHour) {
    return { allowed: false, limit: limits.inferencePerHour, remaining: 0, reset: hourEnd, retryAfter: Math.max(1, hourEnd - Math.floor(now.getTime() / 1000)), window: 'hour' };
  }
  // Totals live under api_key_id '' ; per-key rows feed the usage table.
  const hour = await bump(hourBucket(now), '');
  await bump(monthBucket(now), '');
  if (apiKeyId) await bump(monthBucket(now), apiKeyId);
  return { allowed: true, limit: limits.inferencePerHour, remaining: Math.max(0, limits.inferencePerHour - hour), reset: hourEnd, retryAfter: 0, window: 'hour' };
}

async function currentCount(ctx: AppContext, userId: string, bucket: string) {
  const row = (await ctx.db.select({ c: inferenceUsage.count }).from(inferenceUsage).where(and(eq(inferenceUsage.userId, userId), eq(inferenceUsage.apiKeyId, ''), eq(inferenceUsage.bucket, bucket))))[0];
  return row?.c ?? 0;
}

/** Usage this month, per API key (browser calls count under "web"). */
export async function monthlyUsage(ctx: AppContext, user: { id: string; plan: string }) {
  const now = ctx.clock.now();
  const bucket = monthBucket(now);
  const rows = await ctx.db
    .select({ apiKeyId: inferenceUsage.apiKeyId, count: inferenceUsage.count, name: apiKeys.name, prefix: apiKeys.prefix })
    .from(inferenceUsage)
    .leftJoin(apiKeys, eq(apiKeys.id, inferenceUsage.apiKeyId))
    .where(and(eq(inferenceUsage.userId, user.id), eq(inferenceUsage.bucket, bucket)));
  const total = rows.find((r) => r.apiKeyId === '')?.count ?? 0;
  const limits = PLAN_LIMITS[(user.plan as Plan) in PLAN_LIMITS ? (user.plan as Plan) : 'free'];
  const perKey = rows.filter((r) => r.apiKeyId !== '').map((r) => ({ apiKeyId: r.apiKeyId, name: r.name ?? 'revoked key', prefix: r.prefix ?? '', count: r.count }));
  const viaKeys = perKey.reduce((a, r) => a + r.count, 0);
  return {
    month: bucket.slice(2),
    total,
    limits: { perHour: limits.inferencePerHour, perMonth: limits.inferencePerMonth },
    perKey: [...perKey, ...(total - viaKeys > 0 ? [{ apiKeyId: null, name: 'Web app (session)', prefix: '', count: total - viaKeys }] : [])],
  };
}
