import type { Plan } from './constants.js';

/**
 * Plan defaults of product-notes; an admin may override any value (stored per plan in the DB,
 * read through the server's one `planLimits` function). Bytes, counts, calls, feature switches.
 */
export interface PlanLimits {
  storageBytes: number;
  models: number;
  inferencePerHour: number;
  inferencePerMonth: number;
  /** Cloud training runs at once; 0 means no cloud training on this plan. */
  cloudRunsConcurrent: number;
  cloudTraining: boolean;
  dedicatedInference: boolean;
  teams: boolean;
  walletTopUp: boolean;
}
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: {
    storageBytes: 20 * 1024 ** 3,
    models: 100,
    inferencePerHour: 100,
    inferencePerMonth: 1000,
    cloudRunsConcurrent: 0,
    cloudTraining: false,
    dedicatedInference: false,
    teams: false,
    walletTopUp: false,
  },
  pro: {
    storageBytes: 200 * 1024 ** 3,
    models: 500,
    inferencePerHour: 1000,
    inferencePerMonth: 10000,
    cloudRunsConcurrent: 3,
    cloudTraining: true,
    dedicatedInference: true,
    teams: true,
    walletTopUp: true,
  },
  enterprise: {
    storageBytes: 10 * 1024 ** 4,
    models: Number.MAX_SAFE_INTEGER,
    inferencePerHour: 100000,
    inferencePerMonth: 10_000_000,
    cloudRunsConcurrent: 10,
    cloudTraining: true,
    dedicatedInference: true,
    teams: true,
    walletTopUp: true,
  },
};

/** Pro and enterprise get what the spec calls "pro" features (pro guard, wallet, teams). */
export const isPaidPlan = (plan: string | null | undefined): boolean => plan === 'pro' || plan === 'enterprise';

/**
 * Plan resolution of spec §4: a subscription with status active, past_due or unpaid counts;
 * unpaid means free; no subscription means free.
 */
export function resolvePlan(subscription: { plan: Plan; status: string } | null | undefined): Plan {
  if (!subscription) return 'free';
  if (subscription.status === 'unpaid') return 'free';
  // Stripe's `trialing` is a paying-to-be subscription in good standing: it counts like active.
  if (subscription.status === 'active' || subscription.status === 'past_due' || subscription.status === 'trialing') return subscription.plan;
  return 'free';
}
