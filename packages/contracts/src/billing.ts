import { z } from 'zod';
import { PLANS } from './constants.js';

/**
 * Billing (spec §1, §3, §7): plans, Stripe checkout/portal/top-up, billing history, the wallet
 * ledger. Money is an integer number of micro-USD everywhere (1 USD = 1,000,000).
 */
export const MICRO_USD = 1_000_000;
/** Top-up bounds of product-notes, in USD. */
export const TOP_UP_MIN_USD = 5;
export const TOP_UP_MAX_USD = 1000;

export const planSchema = z.enum(PLANS);
export const billingIntervalSchema = z.enum(['month', 'year']);
export type BillingInterval = z.infer<typeof billingIntervalSchema>;

export const planLimitsSchema = z.object({
  storageBytes: z.number().int().min(0),
  models: z.number().int().min(0),
  inferencePerHour: z.number().int().min(0),
  inferencePerMonth: z.number().int().min(0),
  cloudRunsConcurrent: z.number().int().min(0),
  cloudTraining: z.boolean(),
  dedicatedInference: z.boolean(),
  teams: z.boolean(),
  walletTopUp: z.boolean(),
});
/** Admin edit: a value overrides the default, null puts the default back. */
export const planLimitsPatchSchema = z.object(
  Object.fromEntries(Object.entries(planLimitsSchema.shape).map(([k, v]) => [k, v.nullable().optional()])) as {
    [K in keyof typeof planLimitsSchema.shape]: z.ZodOptional<z.ZodNullable<(typeof planLimitsSchema.shape)[K]>>;
  },
);

export const subscriptionSummarySchema = z.object({
  id: z.string(),
  plan: planSchema,
  /** Stripe's subscription status (active, past_due, unpaid, canceled, ...) or active for an admin-set plan. */
  status: z.string(),
  source: z.enum(['stripe', 'admin']),
  interval: billingIntervalSchema.nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

export const LEDGER_KINDS = ['top_up', 'admin_credit', 'hold', 'settle', 'release'] as const;
export const ledgerKindSchema = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

/**
 * One ledger entry. `amount` changes the spendable balance, `held` the money on hold: a hold moves
 * money from balance to held, a settle spends from held, a release returns the rest of a hold.
 */
export const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: ledgerKindSchema,
  amount: z.number().int(),
  held: z.number().int(),
  /** For settle entries: what was charged (the entry's `held` is minus this). */
  charged: z.number().int(),
  balanceAfter: z.number().int(),
  heldAfter: z.number().int(),
  cause: z.object({
    paymentId: z.string().nullable(),
    modelId: z.string().nullable(),
    epoch: z.number().int().nullable(),
    holdId: z.string().nullable(),
    actor: z.object({ uid: z.string(), username: z.string() }).nullable(),
    reason: z.string().nullable(),
  }),
  created: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const walletSchema = z.object({ balance: z.number().int(), held: z.number().int() });

export const billingSummarySchema = z.object({
  /** false when the server has no Stripe key: plans are set by admins and wallets credited by hand. */
  enabled: z.boolean(),
  plan: planSchema,
  subscription: subscriptionSummarySchema.nullable(),
  wallet: walletSchema,
  limits: planLimitsSchema,
  abilities: z.object({
    upgrade: z.boolean(),
    portal: z.boolean(),
    topUp: z.boolean(),
    history: z.boolean(),
    cancel: z.boolean(),
  }),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

export const ledgerQuerySchema = z.object({
  before: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export const ledgerPageSchema = z.object({ entries: z.array(ledgerEntrySchema), next: z.string().nullable() });
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

/** createCheckoutSessionProPlan (spec §7). */
export const checkoutProBody = z.object({ interval: billingIntervalSchema.default('month') });
/** createCheckoutSessionTopUp (modelId, amount) (spec §7); amount in USD with cents. */
export const topUpBody = z.object({
  amount: z
    .number()
    .min(TOP_UP_MIN_USD, `Top-up must be at least $${TOP_UP_MIN_USD}`)
    .max(TOP_UP_MAX_USD, `Top-up must be at most $${TOP_UP_MAX_USD}`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Use whole cents'),
  modelId: z.string().max(40).optional(),
});
export const redirectSchema = z.object({ url: z.string() });
export const cancelSubscriptionBody = z.object({ cancelAtPeriodEnd: z.boolean() });

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string().nullable(),
  /** micro-USD */
  amount: z.number().int(),
  currency: z.string(),
  description: z.string().nullable(),
  created: z.string(),
  hostedInvoiceUrl: z.string().nullable(),
  invoicePdf: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
/** getBillingHistory (after) (spec §7): newest first, `after` is the last id of the previous page. */
export const historyQuerySchema = z.object({ after: z.string().max(255).optional(), limit: z.coerce.number().int().min(1).max(50).default(10) });
export const historyPageSchema = z.object({ invoices: z.array(invoiceSchema), hasMore: z.boolean(), next: z.string().nullable() });
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** Billing record of spec §3 (training runs per model, subscriptions). */
export const billingRecordSchema = z.object({
  id: z.string(),
  owner: z.object({ uid: z.string() }),
  type: z.enum(['train', 'subscription']),
  refs: z.object({ modelId: z.string().nullable() }),
  dates: z.object({ start: z.string(), end: z.string().nullable() }),
  status: z.string(),
  plan: planSchema,
  /** micro-USD: held for the run, charged so far, given back */
  amounts: z.object({ held: z.number().int(), charged: z.number().int(), released: z.number().int() }),
});
export type BillingRecord = z.infer<typeof billingRecordSchema>;
export const recordsQuerySchema = z.object({ modelId: z.string().max(40).optional() });

export const modelCostSchema = z.object({
  modelId: z.string(),
  charged: z.number().int(),
  held: z.number().int(),
  released: z.number().int(),
  records: z.array(billingRecordSchema),
  entries: z.array(ledgerEntrySchema),
});
export type ModelCost = z.infer<typeof modelCostSchema>;

// admin (billing off or not: plans set by hand, wallets credited by hand)
export const adminSetPlanBody = z.object({ plan: planSchema, reason: z.string().trim().min(3).max(300) });
export const adminCreditBody = z.object({
  /** USD with cents; positive */
  amount: z.number().positive().max(100_000),
  reason: z.string().trim().min(3).max(300),
});
export const adminPlanRowSchema = z.object({ plan: planSchema, limits: planLimitsSchema, defaults: planLimitsSchema, overridden: z.array(z.string()) });
export type AdminPlanRow = z.infer<typeof adminPlanRowSchema>;
export const adminUserBillingSchema = z.object({
  uid: z.string(),
  plan: planSchema,
  subscription: subscriptionSummarySchema.nullable(),
  wallet: walletSchema,
  entries: z.array(ledgerEntrySchema),
});
export type AdminUserBilling = z.infer<typeof adminUserBillingSchema>;

export const formatMicroUsd = (micro: number): string => {
  const sign = micro < 0 ? '-' : '';
  const cents = Math.round(Math.abs(micro) / 10_000);
  return `${sign}$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
};
