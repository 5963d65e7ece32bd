import { ErrorCode } from '@sightline/contracts';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { billingRepository } from './billing.repository.js';
import { announcePlanChange, applyStripeSubscription, applyTopUp, type ApplyOutcome } from './billing.service.js';
import { stripeFor } from './billing.stripe.js';

/**
 * Stripe webhooks: the signature is checked on the raw body with the official client; each event
 * id is handled once (a replay answers 200 and changes nothing); an event about a customer we do
 * not know is recorded with that outcome instead of failing. If handling throws, the claim rolls
 * back with it and Stripe retries later.
 */
export async function handleStripeWebhook(ctx: AppContext, rawBody: Buffer, signature: string | undefined) {
  const client = stripeFor(ctx.config);
  if (!client || !ctx.config.stripe) throw new AppError(404, ErrorCode.BillingDisabled, 'Billing is not configured on this server');
  let event: Stripe.Event;
  try {
    event = client.webhooks.constructEvent(rawBody, signature ?? '', ctx.config.stripe.webhookSecret);
  } catch (err) {
    ctx.log.warn({ reason: (err as Error).message, signature: signature ? 'present' : 'missing' }, 'stripe webhook refused: signature check failed');
    throw new AppError(400, ErrorCode.BadSignature, 'Webhook signature verification failed');
  }

  const result = await ctx.db.transaction(async (tx) => {
    const fresh = await billingRepository.claimEvent(tx, {
      id: event.id,
      type: event.type,
      outcome: 'received',
      payload: event as unknown as Record<string, unknown>,
      receivedAt: ctx.clock.now(),
    });
    if (!fresh) return null;
    const applied = await dispatch(ctx, event, tx);
    await billingRepository.finishEvent(tx, event.id, applied.outcome, applied.userId, applied.detail);
    return applied;
  });
  if (!result) {
    ctx.log.info({ eventId: event.id, type: event.type }, 'stripe webhook replay ignored');
    return { received: true, duplicate: true, outcome: 'duplicate' };
  }
  if (result.outcome === 'unknown-customer')
    ctx.log.warn({ eventId: event.id, type: event.type, detail: result.detail }, 'stripe webhook for an unknown customer recorded');
  await announcePlanChange(ctx, result.change, { source: 'stripe', event: event.id });
  return { received: true, duplicate: false, outcome: result.outcome };
}

async function dispatch(ctx: AppContext, event: Stripe.Event, tx: Parameters<typeof applyStripeSubscription>[4]): Promise<ApplyOutcome> {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return applyStripeSubscription(ctx, event.data.object, event.created, event.type, tx);
    case 'checkout.session.completed': {
      const s = event.data.object;
      if (s.mode === 'payment') return { ...(await applyTopUp({ ...ctx, db: tx! }, s)), change: null };
      // Subscription checkouts: link the customer now; the plan follows customer.subscription.*.
      const userId = s.client_reference_id ?? s.metadata?.userId;
      const user = userId ? await billingRepository.user(tx!, userId) : null;
      if (!user) return { outcome: 'unknown-customer', userId: null, detail: `checkout ${s.id}`, change: null };
      const customer = typeof s.customer === 'string' ? s.customer : s.customer?.id;
      if (customer && !user.paymentCustomerId) await billingRepository.setCustomer(tx!, user.id, customer);
      return { outcome: 'processed', userId: user.id, detail: `checkout ${s.id}`, change: null };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const inv = event.data.object;
      const customer = typeof inv.customer === 'string' ? inv.customer : inv.customer?.id;
      const user = customer ? await billingRepository.userByCustomer(tx!, customer) : null;
      if (!user) return { outcome: 'unknown-customer', userId: null, detail: `invoice ${inv.id} customer ${customer ?? '?'}`, change: null };
      // The subscription's status (past_due, unpaid, active) arrives as customer.subscription.updated.
      return {
        outcome: 'processed',
        userId: user.id,
        detail: `invoice ${inv.id} ${event.type === 'invoice.paid' ? 'paid' : 'payment failed'} ${inv.amount_due}`,
        change: null,
      };
    }
    default:
      return { outcome: 'ignored', userId: null, detail: null, change: null };
  }
}
