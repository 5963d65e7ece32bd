import type { Plan } from './constants.js';

/** Plan defaults of product-notes (admins may change them later). Bytes, counts, calls. */
export const PLAN_LIMITS: Record<Plan, { storageBytes: number; models: number; inferencePerHour: number; inferencePerMonth: number }> = {
  free: { storageBytes: 20 * 1024 ** 3, models: 100, inferencePerHour: 100, inferencePerMonth: 1000 },
  pro: { storageBytes: 200 * 1024 ** 3, models: 500, inferencePerHour: 1000, inferencePerMonth: 10000 },
  enterprise: { storageBytes: 10 * 1024 ** 4, models: Number.MAX_SAFE_INTEGER, inferencePerHour: 100000, inferencePerMonth: 10_000_000 },
};

/**
 * Plan resolution of spec §4: a subscription with status active, past_due or unpaid counts;
 * unpaid means free; no subscription means free.
 */
export function resolvePlan(subscription: { plan: Plan; status: string } | null | undefined): Plan {
  if (!subscription) return 'free';
  if (subscription.status === 'unpaid') return 'free';
  if (subscription.status === 'active' || subscription.status === 'past_due') return subscription.plan;
  return 'free';
}
