import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingSummary } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { makeUser, renderRoutes } from '../../../test/render';
import { BillingTab } from './billing-tab';

const json = (data: unknown, status = 200) => new Response(JSON.stringify(status < 400 ? { data } : data), { status });
const routes = [{ path: '/settings', element: <BillingTab /> }];
const limits = {
  storageBytes: 20 * 1024 ** 3,
  models: 100,
  inferencePerHour: 100,
  inferencePerMonth: 1000,
  cloudRunsConcurrent: 0,
  cloudTraining: false,
  dedicatedInference: false,
  teams: false,
  walletTopUp: false,
};
const summary = (over: Partial<BillingSummary> = {}): BillingSummary => ({
  enabled: true,
  plan: 'free',
  subscription: null,
  wallet: { balance: 0, held: 0 },
  limits,
  abilities: { upgrade: true, portal: false, topUp: false, history: false, cancel: false },
  ...over,
});
const emptyLedger = { entries: [], next: null };

/** Routes the tab's calls; everything else 404s. */
function serve(handlers: Record<string, () => Response>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
    return handlers[key]?.() ?? json({ error: { code: 'error/not-found', message: 'nope' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const activeMessages = () => notifications.store.getState().active.map((n) => n.message);

describe('billing tab', () => {
  beforeEach(() => notifications.reset());
  afterEach(() => vi.unstubAllGlobals());

  it('says plainly when billing is off and offers no payment buttons', async () => {
    serve({
      'GET /v1/billing': () => json(summary({ enabled: false, abilities: { upgrade: false, portal: false, topUp: false, history: false, cancel: false } })),
      'GET /v1/billing/ledger': () => json(emptyLedger),
    });
    renderRoutes(routes, { path: '/settings', user: makeUser() });
    expect(await screen.findByTestId('billing-off')).toHaveTextContent('Billing is off on this server');
    expect(screen.queryByRole('button', { name: /Upgrade to Pro/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('billing-history')).not.toBeInTheDocument();
  });

  it('a failed upgrade shows the spec sentence', async () => {
    serve({
      'GET /v1/billing': () => json(summary()),
      'GET /v1/billing/ledger': () => json(emptyLedger),
      'POST /v1/billing/checkout/pro': () => json({ error: { code: 'billing/provider-error', message: 'Something went wrong. Please try again later.' } }, 502),
    });
    renderRoutes(routes, { path: '/settings', user: makeUser() });
    fireEvent.click(await screen.findByRole('button', { name: /Upgrade to Pro/ }));
    await waitFor(() => expect(activeMessages()).toContain('Something went wrong. Please try again later.'));
  });

  it('pro: renewal date, portal, wallet with its ledger and the history', async () => {
    serve({
      'GET /v1/billing': () =>
        json(
          summary({
            plan: 'pro',
            subscription: {
              id: 'sub_1',
              plan: 'pro',
              status: 'past_due',
              source: 'stripe',
              interval: 'month',
              currentPeriodEnd: '2026-12-23T00:00:00.000Z',
              cancelAtPeriodEnd: false,
            },
            wallet: { balance: 12_340_000, held: 1_000_000 },
            abilities: { upgrade: false, portal: true, topUp: true, history: true, cancel: true },
          }),
        ),
      'GET /v1/billing/ledger': () =>
        json({
          entries: [
            {
              id: 'e1',
              kind: 'top_up',
              amount: 13_340_000,
              held: 0,
              charged: 0,
              balanceAfter: 13_340_000,
              heldAfter: 0,
              cause: { paymentId: 'pi_1', modelId: null, epoch: null, holdId: null, actor: null, reason: 'Wallet top-up' },
              created: '2026-11-01T00:00:00.000Z',
            },
          ],
          next: null,
        }),
      'GET /v1/billing/history': () =>
        json({
          invoices: [
            {
              id: 'in_1',
              number: 'SL-0001',
              status: 'paid',
              amount: 29_000_000,
              currency: 'usd',
              description: 'Sightline Pro (monthly)',
              created: '2026-11-01T00:00:00.000Z',
              hostedInvoiceUrl: 'https://x/in_1',
              invoicePdf: null,
            },
          ],
          hasMore: false,
          next: null,
        }),
    });
    renderRoutes(routes, { path: '/settings', user: makeUser({ plan: 'pro' }) });
    expect(await screen.findByTestId('billing-plan')).toHaveTextContent('Pro');
    expect(screen.getByTestId('billing-renewal')).toHaveTextContent('Renews on');
    expect(screen.getByText(/Your last payment failed/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Manage billing/ })).toBeInTheDocument();
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('$12.34');
    expect(await screen.findByTestId('ledger-table')).toHaveTextContent('Payment pi_1');
    expect(await screen.findByText('SL-0001')).toBeInTheDocument();
  });

  it('when the summary cannot load: Unable to get billing information', async () => {
    serve({ 'GET /v1/billing': () => json({ error: { code: 'error/unknown', message: 'x' } }, 500) });
    renderRoutes(routes, { path: '/settings', user: makeUser() });
    expect(await screen.findByText('Unable to get billing information')).toBeInTheDocument();
  });
});
