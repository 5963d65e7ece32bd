import { ErrorCode, MICRO_USD, resolvePlan, type BillingInterval, type Plan, type PlanLimits } from '@sightline/contracts';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isEnabled } from '../flags/flags.service.js';
import { presentUser } from '../users/users.presenter.js';
import { credit } from './billing.ledger.js';
import { asPlan, planLimits } from './billing.plans.js';
import { abilities, assertAllowed, billingPolicy, type BillingFacts } from './billing.policy.js';
import { presentEntry, presentInvoice, presentRecord, presentSubscription } from './billing.presenter.js';
import { billingRepository, type SubscriptionRow } from './billing.repository.js';
import { stripeFor } from './billing.stripe.js';

type UserRow = NonNullable<Awaited<ReturnType<typeof billingRepository.user>>>;

const RANK: Record<Plan, number> = { free: 0, pro: 1, enterprise: 2 };
/** Subscriptions that still hold a plan (resolvePlan decides what each is worth). */
const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete']);

/** The effective plan over all of a user's subscriptions (Stripe's and an admin's): the highest. */
export function effectivePlan(subs: Array<Pick<SubscriptionRow, 'plan' | 'status'>>): Plan {
  let best: Plan = 'free';
  for (const s of subs) {
    const p = resolvePlan({ plan: asPlan(s.plan), status: s.status });
    if (RANK[p] > RANK[best]) best = p;
  }
  return best;
}

/** The subscription the billing tab talks about: a live Stripe one first, else an admin-set one. */
export function currentSubscription(subs: SubscriptionRow[]): SubscriptionRow | null {
  return subs.find((s) => s.source === 'stripe' && LIVE.has(s.status)) ?? subs.find((s) => s.source === 'admin' && s.status === 'active') ?? null;
}

function stripe(ctx: AppContext): Stripe {
  const s = stripeFor(ctx.config);
  if (!s) throw new AppError(409, ErrorCode.BillingDisabled, 'Billing is not configured on this server');
  return s;
}

/** Stripe failures are logged with their detail and answered with the spec's sentence (§8). */
async function callStripe<T>(ctx: AppContext, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    ctx.log.error({ err: { message: (err as Error).message, type: (err as { type?: string }).type } }, `stripe ${what} failed`);
    throw new AppError(502, ErrorCode.PaymentProvider, 'Something went wrong. Please try again later.');
  }
}

async function loadUser(ctx: AppContext, userId: string): Promise<UserRow> {
  const user = await billingRepository.user(ctx.db, userId);
  if (!user) throw errors.notFound('User');
  return user;
}

async function facts(ctx: AppContext, user: UserRow) {
  const subs = await billingRepository.subscriptions(ctx.db, user.id);
  const current = currentSubscription(subs);
  const limits = await planLimits(ctx, user.plan);
  const f: BillingFacts = {
    enabled: Boolean(ctx.config.stripe),
    plan: user.plan,
    customerId: user.paymentCustomerId,
    stripeSubscription: current?.source === 'stripe' ? { cancelAtPeriodEnd: current.cancelAtPeriodEnd } : null,
    limits,
    walletTopUpFlag: await isEnabled(ctx, 'walletTopUp'),
  };
  return { facts: f, current, limits };
}

export async function billingSummary(ctx: AppContext, userId: string) {
  const user = await loadUser(ctx, userId);
  const { facts: f, current, limits } = await facts(ctx, user);
  return {
    enabled: f.enabled,
    plan: asPlan(user.plan),
    subscription: presentSubscription(current),
    wallet: { balance: user.walletBalance, held: user.walletHeld },
    limits,
    abilities: abilities(f),
  };
}

export async function ledgerPage(ctx: AppContext, userId: string, opts: { before?: string; limit: number; modelId?: string }) {
  const before = opts.before ? await billingRepository.entry(ctx.db, opts.before) : null;
  if (before && before.userId !== userId) throw errors.notFound('Entry');
  const rows = await billingRepository.entries(ctx.db, userId, { limit: opts.limit + 1, before, modelId: opts.modelId });
  const page = rows.slice(0, opts.limit);
  const names = await billingRepository.usernames(ctx.db, [...new Set(page.map((r) => r.actorId).filter((x): x is string => Boolean(x)))]);
  return { entries: page.map((r) => presentEntry(r, names)), next: rows.length > opts.limit ? (page.at(-1)?.id ?? null) : null };
}

async function ensureCustomer(ctx: AppContext, user: UserRow): Promise<string> {
  if (user.paymentCustomerId) return user.paymentCustomerId;
  const customer = await callStripe(ctx, 'customer', () =>
    stripe(ctx).customers.create(
      { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' '), metadata: { userId: user.id } },
      { idempotencyKey: `customer-${user.id}` },
    ),
  );
  await billingRepository.setCustomer(ctx.db, user.id, customer.id);
  return customer.id;
}

const returnUrl = (ctx: AppContext, origin: string | undefined, query = '') => `${ctx.baseUrl(origin)}/settings?tab=billing${query}`;

/** createCheckoutSessionProPlan (spec §7): a Stripe Checkout for pro, monthly or yearly. */
export async function checkoutPro(ctx: AppContext, userId: string, interval: BillingInterval, origin?: string) {
  const user = await loadUser(ctx, userId);
  const { facts: f } = await facts(ctx, user);
  assertAllowed(billingPolicy.canUpgrade(f), f, 'You are already on a paid plan; manage it in the billing portal');
  const cfg = ctx.config.stripe!;
  const customer = await ensureCustomer(ctx, user);
  const session = await callStripe(ctx, 'checkout', () =>
    stripe(ctx).checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{ price: interval === 'year' ? cfg.prices.proYearly : cfg.prices.proMonthly, quantity: 1 }],
      success_url: returnUrl(ctx, origin, '&checkout=success'),
      cancel_url: returnUrl(ctx, origin, '&checkout=cancel'),
      metadata: { userId: user.id, kind: 'pro', interval },
      subscription_data: { metadata: { userId: user.id, plan: 'pro' } },
    }),
  );
  return { url: session.url! };
}

/** createPortalSession (spec §7): Stripe's Customer Portal for the user's customer. */
export async function portal(ctx: AppContext, userId: string, origin?: string) {
  const user = await loadUser(ctx, userId);
  const { facts: f } = await facts(ctx, user);
  assertAllowed(billingPolicy.canOpenPortal(f), f, 'There is no billing account for you yet');
  const session = await callStripe(ctx, 'portal', () =>
    stripe(ctx).billingPortal.sessions.create({ customer: user.paymentCustomerId!, return_url: returnUrl(ctx, origin) }),
  );
  return { url: session.url };
}

/** createCheckoutSessionTopUp (modelId, amount) (spec §7): a one-off payment into the wallet. */
export async function checkoutTopUp(ctx: AppContext, userId: string, input: { amount: number; modelId?: string }, origin?: string) {
  const user = await loadUser(ctx, userId);
  const { facts: f } = await facts(ctx, user);
  assertAllowed(billingPolicy.canTopUp(f), f, 'Wallet top-ups need the Pro or Enterprise plan');
  if (input.modelId) {
    const model = await billingRepository.modelOwner(ctx.db, input.modelId);
    if (!model || model.userId !== user.id) throw errors.notFound('Model');
  }
  const cents = Math.round(input.amount * 100);
  const customer = await ensureCustomer(ctx, user);
  const session = await callStripe(ctx, 'top-up', () =>
    stripe(ctx).checkout.sessions.create({
      mode: 'payment',
      customer,
      client_reference_id: user.id,
      line_items: [{ price_data: { currency: 'usd', unit_amount: cents, product_data: { name: 'Sightline wallet top-up' } }, quantity: 1 }],
      invoice_creation: { enabled: true },
      success_url: returnUrl(ctx, origin, '&topup=success'),
      cancel_url: returnUrl(ctx, origin, '&topup=cancel'),
      metadata: { userId: user.id, kind: 'top_up', ...(input.modelId ? { modelId: input.modelId } : {}) },
    }),
  );
  return { url: session.url! };
}

/** getBillingHistory (after) (spec §7): the customer's Stripe invoices, newest first. */
export async function billingHistory(ctx: AppContext, userId: string, opts: { after?: string; limit: number }) {
  const user = await loadUser(ctx, userId);
  const { facts: f } = await facts(ctx, user);
  assertAllowed(billingPolicy.canSeeHistory(f), f, 'Billing history is for Pro users and paying customers');
  if (!user.paymentCustomerId) return { invoices: [], hasMore: false, next: null };
  const list = await callStripe(ctx, 'history', () =>
    stripe(ctx).invoices.list({ customer: user.paymentCustomerId!, limit: opts.limit, ...(opts.after ? { starting_after: opts.after } : {}) }),
  );
  const invoices = list.data.map(presentInvoice);
  return { invoices, hasMore: list.has_more, next: list.has_more ? (invoices.at(-1)?.id ?? null) : null };
}

/** Cancel at period end (or undo it): the plan stays until Stripe ends the subscription. */
export async function setCancelAtPeriodEnd(ctx: AppContext, userId: string, cancel: boolean) {
  const user = await loadUser(ctx, userId);
  const { facts: f, current } = await facts(ctx, user);
  assertAllowed(billingPolicy.canCancel(f), f, 'There is no subscription to cancel');
  const sub = await callStripe(ctx, 'cancel', () => stripe(ctx).subscriptions.update(current!.id, { cancel_at_period_end: cancel }));
  await applyStripeSubscription(ctx, sub, Math.floor(ctx.clock.now().getTime() / 1000), 'customer.subscription.updated');
  return billingSummary(ctx, userId);
}

/** Plan for a Stripe subscription: our price ids say pro; otherwise its metadata may name a plan. */
function planOf(ctx: AppContext, sub: Stripe.Subscription): Plan | null {
  const prices = ctx.config.stripe?.prices;
  const priceId = sub.items?.data?.[0]?.price?.id;
  if (prices && (priceId === prices.proMonthly || priceId === prices.proYearly)) return 'pro';
  const named = sub.metadata?.plan;
  return named === 'pro' || named === 'enterprise' ? named : null;
}

/** Recomputes users.plan from the subscriptions, inside the caller's transaction (user row locked). */
async function recomputePlan(tx: Db, ctx: Pick<AppContext, 'clock'>, user: UserRow) {
  const plan = effectivePlan(await billingRepository.subscriptions(tx, user.id));
  const row = plan === user.plan ? user : await billingRepository.setPlan(tx, user.id, plan, ctx.clock.now());
  return { from: asPlan(user.plan), to: plan, row };
}

type PlanChange = Awaited<ReturnType<typeof recomputePlan>>;

/** After commit: analytics `update_plan` and the user's realtime update (the SPA hides the ad at once). */
export async function announcePlanChange(ctx: AppContext, change: PlanChange | null, props: Record<string, unknown>) {
  if (!change || change.from === change.to) return;
  await ctx.events.emit('user.planChanged', change.row.id, { user: presentUser(change.row), from: change.from, to: change.to, props });
}

export type ApplyOutcome = {
  outcome: 'processed' | 'ignored' | 'unknown-customer' | 'stale';
  userId: string | null;
  detail: string | null;
  change: PlanChange | null;
};

/**
 * Applies a Stripe subscription object to our subscription table and the user's plan. Events that
 * are older than the last one applied to this subscription change nothing (Stripe may deliver out
 * of order). `tx` lets the webhook do it in the transaction that claims the event id.
 */
export async function applyStripeSubscription(ctx: AppContext, sub: Stripe.Subscription, eventAt: number, type: string, tx?: Db): Promise<ApplyOutcome> {
  const run = async (t: Db): Promise<ApplyOutcome> => {
    const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
    const found =
      (await billingRepository.userByCustomer(t, customerId)) ?? (sub.metadata?.userId ? await billingRepository.user(t, sub.metadata.userId) : null);
    if (!found) return { outcome: 'unknown-customer', userId: null, detail: `customer ${customerId}`, change: null };
    const plan = planOf(ctx, sub);
    if (!plan) return { outcome: 'ignored', userId: found.id, detail: `no plan for price ${sub.items?.data?.[0]?.price?.id ?? '?'}`, change: null };
    const user = (await billingRepository.lockUser(t, found.id))!;
    const existing = await billingRepository.subscription(t, sub.id);
    if (existing && existing.stripeEventAt > eventAt) return { outcome: 'stale', userId: user.id, detail: sub.id, change: null };
    const item = sub.items?.data?.[0];
    const periodEnd = item?.current_period_end ?? (sub as unknown as { current_period_end?: number }).current_period_end ?? null;
    const status = type === 'customer.subscription.deleted' ? 'canceled' : sub.status;
    const now = ctx.clock.now();
    await billingRepository.upsertSubscription(t, {
      id: sub.id,
      userId: user.id,
      source: 'stripe',
      plan,
      status,
      interval: item?.price?.recurring?.interval ?? null,
      customerId,
      priceId: item?.price?.id ?? null,
      currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      stripeEventAt: eventAt,
      createdAt: now,
      updatedAt: now,
    });
    if (!user.paymentCustomerId) await billingRepository.setCustomer(t, user.id, customerId);
    await billingRepository.upsertSubscriptionRecord(t, {
      id: newId(),
      userId: user.id,
      type: 'subscription',
      subscriptionId: sub.id,
      plan,
      status,
      startedAt: new Date((sub.start_date ?? sub.created) * 1000),
      endedAt: status === 'canceled' ? now : null,
    });
    const change = await recomputePlan(t, ctx, user);
    return { outcome: 'processed', userId: user.id, detail: `${sub.id} ${status}`, change };
  };
  if (tx) return run(tx);
  const result = await ctx.db.transaction(run);
  await announcePlanChange(ctx, result.change, { source: 'stripe', subscription: sub.id });
  return result;
}

/** A paid top-up checkout credits the wallet once (key: the checkout session id). */
export async function applyTopUp(ctx: AppContext, s: Stripe.Checkout.Session): Promise<Omit<ApplyOutcome, 'change'>> {
  const userId = s.client_reference_id ?? s.metadata?.userId ?? null;
  const user = userId ? await billingRepository.user(ctx.db, userId) : null;
  if (!user) return { outcome: 'unknown-customer', userId: null, detail: `checkout ${s.id}` };
  if (s.payment_status !== 'paid' || !s.amount_total) return { outcome: 'ignored', userId: user.id, detail: `checkout ${s.id} ${s.payment_status}` };
  const paymentId = typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? s.id);
  const modelId = s.metadata?.modelId ?? null;
  const { entry } = await credit(ctx, {
    userId: user.id,
    kind: 'top_up',
    amount: s.amount_total * 10_000,
    idempotencyKey: `checkout:${s.id}`,
    paymentId,
    modelId,
    reason: 'Wallet top-up',
  });
  return { outcome: 'processed', userId: user.id, detail: `top-up ${entry.amount / MICRO_USD} USD` };
}

// ---- records and per-model cost (spec §3, §7: billing by model and owner, newest first)

export async function billingRecords(ctx: AppContext, userId: string, modelId?: string) {
  return (await billingRepository.records(ctx.db, userId, modelId)).map(presentRecord);
}

export async function modelCost(ctx: AppContext, viewerId: string, modelId: string) {
  const model = await billingRepository.modelOwner(ctx.db, modelId);
  if (!model || !billingPolicy.canSeeModelCost(viewerId, model)) throw errors.notFound('Model');
  const records = await billingRecords(ctx, model.userId, modelId);
  const { entries } = await ledgerPage(ctx, model.userId, { limit: 100, modelId });
  const sum = (k: 'held' | 'charged' | 'released') => records.reduce((a, r) => a + r.amounts[k], 0);
  return { modelId, charged: sum('charged'), held: sum('held') - sum('charged') - sum('released'), released: sum('released'), records, entries };
}

// ---- admin: plans by hand (billing on or off) and wallet credits, each naming who and why

export async function adminSetPlan(ctx: AppContext, adminId: string, userId: string, plan: Plan, reason: string) {
  const change = await ctx.db.transaction(async (tx) => {
    const user = await billingRepository.lockUser(tx, userId);
    if (!user) throw errors.notFound('User');
    const now = ctx.clock.now();
    await billingRepository.upsertSubscription(tx, {
      id: `adm_${userId}`,
      userId,
      source: 'admin',
      plan,
      status: plan === 'free' ? 'canceled' : 'active',
      setBy: adminId,
      reason,
      createdAt: now,
      updatedAt: now,
    });
    return recomputePlan(tx, ctx, user);
  });
  await announcePlanChange(ctx, change, { source: 'admin', by: adminId, reason });
  return adminUserBilling(ctx, userId);
}

export async function adminCredit(ctx: AppContext, adminId: string, userId: string, amountUsd: number, reason: string) {
  await credit(ctx, {
    userId,
    kind: 'admin_credit',
    amount: Math.round(amountUsd * 100) * 10_000,
    idempotencyKey: `admin:${newId()}`,
    actorId: adminId,
    reason,
  });
  return adminUserBilling(ctx, userId);
}

export async function adminUserBilling(ctx: AppContext, userId: string) {
  const user = await loadUser(ctx, userId);
  const subs = await billingRepository.subscriptions(ctx.db, userId);
  const { entries } = await ledgerPage(ctx, userId, { limit: 20 });
  return {
    uid: user.id,
    plan: asPlan(user.plan),
    subscription: presentSubscription(currentSubscription(subs)),
    wallet: { balance: user.walletBalance, held: user.walletHeld },
    entries,
  };
}

export type { PlanLimits };
