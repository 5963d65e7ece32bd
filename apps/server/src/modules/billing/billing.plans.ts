import { PLAN_LIMITS, PLANS, type Plan, type PlanLimits } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { billingRepository, type PlanLimitsRow } from './billing.repository.js';

/**
 * Plan limits: the defaults of contracts PLAN_LIMITS with the admin's overrides (table plan_limits)
 * on top. `planLimits` is THE function quotas read (storage, models, inference, teams, cloud runs).
 * Overrides are cached a few seconds per database handle so the inference hot path stays one query.
 */
const CACHE_MS = 5_000;
const cache = new WeakMap<Db, { at: number; rows: Map<string, PlanLimitsRow> }>();

const LIMIT_KEYS = Object.keys(PLAN_LIMITS.free) as Array<keyof PlanLimits>;

export const asPlan = (plan: string | null | undefined): Plan => ((PLANS as readonly string[]).includes(plan ?? '') ? (plan as Plan) : 'free');

async function overrides(db: Db): Promise<Map<string, PlanLimitsRow>> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.rows;
  const rows = new Map((await billingRepository.planOverrides(db)).map((r) => [r.plan, r]));
  cache.set(db, { at: Date.now(), rows });
  return rows;
}

function merge(plan: Plan, row: PlanLimitsRow | undefined): { limits: PlanLimits; overridden: string[] } {
  const limits = { ...PLAN_LIMITS[plan] } as Record<keyof PlanLimits, number | boolean>;
  const overridden: string[] = [];
  for (const key of LIMIT_KEYS) {
    const v = row?.[key];
    if (v !== null && v !== undefined) {
      limits[key] = v;
      overridden.push(key);
    }
  }
  return { limits: limits as unknown as PlanLimits, overridden };
}

/** The limits of a plan (unknown plan names read as free). */
export async function planLimits(ctx: Pick<AppContext, 'db'>, plan: string | null | undefined): Promise<PlanLimits> {
  const p = asPlan(plan);
  return merge(p, (await overrides(ctx.db)).get(p)).limits;
}

export async function allPlanLimits(ctx: Pick<AppContext, 'db'>) {
  const rows = await overrides(ctx.db);
  return PLANS.map((plan) => ({ plan, defaults: PLAN_LIMITS[plan], ...merge(plan, rows.get(plan)) }));
}

/** Admin edit: a value sets an override, null puts the default back. */
export async function updatePlanLimits(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  by: string,
  plan: Plan,
  patch: Partial<Record<keyof PlanLimits, number | boolean | null>>,
) {
  const current = (await billingRepository.planOverrides(ctx.db)).find((r) => r.plan === plan);
  const next: Record<string, unknown> = { plan, updatedBy: by, updatedAt: ctx.clock.now() };
  for (const key of LIMIT_KEYS) next[key] = key in patch ? patch[key] : (current?.[key] ?? null);
  await billingRepository.upsertPlanOverride(ctx.db, next as PlanLimitsRow);
  cache.delete(ctx.db);
  return (await allPlanLimits(ctx)).find((r) => r.plan === plan)!;
}
