import type { BillingRecord, Invoice, LedgerEntry, SubscriptionSummary } from '@sightline/contracts';
import type Stripe from 'stripe';
import { asPlan } from './billing.plans.js';
import type { BillingRecordRow, SubscriptionRow, WalletEntryRow } from './billing.repository.js';

/** Row → JSON for billing; the only place its response shapes are built. */
export function presentEntry(row: WalletEntryRow, usernames: Map<string, string>): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    held: row.held,
    charged: row.charged,
    balanceAfter: row.balanceAfter,
    heldAfter: row.heldAfter,
    cause: {
      paymentId: row.paymentId,
      modelId: row.modelId,
      epoch: row.epoch,
      holdId: row.kind === 'hold' ? null : row.holdId,
      actor: row.actorId ? { uid: row.actorId, username: usernames.get(row.actorId) ?? 'admin' } : null,
      reason: row.reason,
    },
    created: row.createdAt.toISOString(),
  };
}

export function presentSubscription(row: SubscriptionRow | null): SubscriptionSummary | null {
  if (!row) return null;
  return {
    id: row.id,
    plan: asPlan(row.plan),
    status: row.status,
    source: row.source,
    interval: row.interval === 'month' || row.interval === 'year' ? row.interval : null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

export function presentRecord(row: BillingRecordRow): BillingRecord {
  return {
    id: row.id,
    owner: { uid: row.userId },
    type: row.type,
    refs: { modelId: row.modelId },
    dates: { start: row.startedAt.toISOString(), end: row.endedAt?.toISOString() ?? null },
    status: row.status,
    plan: asPlan(row.plan),
    amounts: { held: row.held, charged: row.charged, released: row.released },
  };
}

/** Stripe amounts are in cents; ours in micro-USD. */
export const centsToMicro = (cents: number) => cents * 10_000;

export function presentInvoice(inv: Stripe.Invoice): Invoice {
  return {
    id: inv.id ?? '',
    number: inv.number ?? null,
    status: inv.status ?? null,
    amount: centsToMicro(inv.amount_paid ?? inv.total ?? 0),
    currency: inv.currency,
    description: inv.description ?? inv.lines?.data?.[0]?.description ?? null,
    created: new Date(inv.created * 1000).toISOString(),
    hostedInvoiceUrl: inv.hosted_invoice_url ?? null,
    invoicePdf: inv.invoice_pdf ?? null,
  };
}
