import { ErrorCode, isPaidPlan, type PlanLimits } from '@sightline/contracts';
import { AppError, errors } from '../../platform/http/errors.js';

/**
 * Who may do what with billing. Pure rules; the service loads the facts and asks here, and the
 * summary sends the answers to the SPA as abilities (it never re-implements them).
 */
export interface BillingFacts {
  enabled: boolean;
  plan: string;
  customerId: string | null;
  /** an active (or past_due) Stripe subscription */
  stripeSubscription: { cancelAtPeriodEnd: boolean } | null;
  limits: PlanLimits;
  walletTopUpFlag: boolean;
}

export const billingPolicy = {
  canUpgrade: (f: BillingFacts) => f.enabled && !isPaidPlan(f.plan) && !f.stripeSubscription,
  canOpenPortal: (f: BillingFacts) => f.enabled && Boolean(f.customerId),
  /** Wallet is for pro and enterprise (spec §1) and behind the walletTopUp flag (spec §9). */
  canTopUp: (f: BillingFacts) => f.enabled && isPaidPlan(f.plan) && f.limits.walletTopUp && f.walletTopUpFlag,
  /** Billing history is for pro users or any user with a payment customer id (spec §1). */
  canSeeHistory: (f: BillingFacts) => f.enabled && (isPaidPlan(f.plan) || Boolean(f.customerId)),
  canCancel: (f: BillingFacts) => f.enabled && Boolean(f.stripeSubscription),
  /** A model's costs are the owner's business only. */
  canSeeModelCost: (viewerId: string, model: { userId: string }) => model.userId === viewerId,
};

export function abilities(f: BillingFacts) {
  return {
    upgrade: billingPolicy.canUpgrade(f),
    portal: billingPolicy.canOpenPortal(f),
    topUp: billingPolicy.canTopUp(f),
    history: billingPolicy.canSeeHistory(f),
    cancel: billingPolicy.canCancel(f),
  };
}

export const billingDisabled = () => new AppError(409, ErrorCode.BillingDisabled, 'Billing is not configured on this server');

export function assertAllowed(allowed: boolean, f: BillingFacts, message: string) {
  if (allowed) return;
  if (!f.enabled) throw billingDisabled();
  throw new AppError(403, ErrorCode.PlanRequired, message);
}

export const forbidden = errors.forbidden;
