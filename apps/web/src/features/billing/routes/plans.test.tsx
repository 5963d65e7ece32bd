import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LIMITS, type BillingSummary } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import PlansPage from './plans';
import WalletPage from './wallet';

afterEach(() => vi.unstubAllGlobals());

const summary: BillingSummary = {
  enabled: false,
  plan: 'free',
  subscription: null,
  wallet: { balance: 0, held: 0 },
  limits: PLAN_LIMITS.free,
  abilities: { upgrade: false, portal: false, topUp: false, history: false, cancel: false },
};
const offers = (['free', 'pro', 'enterprise'] as const).map((plan) => ({ plan, limits: PLAN_LIMITS[plan] }));
const request = { id: 'R1', plan: 'pro', fromPlan: 'free', message: 'thesis', status: 'open', created: '2026-11-25T00:00:00Z', decided: null };

function serve(open: boolean) {
  let mine = open ? request : null;
  const api = fakeApi({
    'GET /v1/billing': () => summary,
    'GET /v1/billing/plans': () => offers,
    'GET /v1/billing/upgrade-requests/mine': () => ({ request: mine }),
    'POST /v1/billing/upgrade-requests': () => ((mine = request), request),
    'GET /v1/support/contact': () => ({ email: 'help@lab.test' }),
  });
  vi.stubGlobal('fetch', api.fetch);
  return api;
}

describe('plans page (ADR 0030)', () => {
  it('with the flags off, says so in plain words and promises nothing; Request Pro sends the note', async () => {
    const api = serve(false);
    renderRoutes([{ path: '/plans', element: <PlansPage /> }], { path: '/plans', user: makeUser() });
    const pro = await screen.findByTestId('plan-pro');
    expect(pro).toHaveTextContent('Cloud training: Not enabled on this server');
    expect(within(screen.getByTestId('plan-free')).getByText(': Join teams you are invited to', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('plan-flags-off')).toHaveTextContent('Dedicated inference is not enabled on this server — ask your admin');
    expect(screen.getByTestId('plan-comparison')).not.toHaveTextContent(/flag|coming/i);
    fireEvent.click(within(pro).getByRole('button', { name: 'Request Pro' }));
    fireEvent.change(await screen.findByTestId('request-message'), { target: { value: 'thesis' } });
    fireEvent.click(screen.getByTestId('request-send'));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/v1/billing/upgrade-requests', body: { plan: 'pro', message: 'thesis' } }),
    );
    expect(await screen.findByTestId('upgrade-request-open')).toHaveTextContent('You asked for Pro');
    expect(screen.getByTestId('upgrade-request-open')).toHaveTextContent('help@lab.test');
  });

  it('with cloud training on, the plans show what they give', async () => {
    serve(false);
    const { queryClient } = renderRoutes([{ path: '/plans', element: <PlansPage /> }], { path: '/plans', user: makeUser() });
    act(() =>
      queryClient.setQueryData(['config'], (c: Record<string, unknown>) => ({
        ...c,
        flags: { cloudTraining: true, teamsCollaboration: true, walletTopUp: false, dedicatedInference: true },
      })),
    );
    expect(await screen.findByTestId('plan-pro')).toHaveTextContent('Cloud training: up to 3 at once');
    expect(screen.getByTestId('plan-pro')).toHaveTextContent('Dedicated inference: Yes');
    expect(screen.queryByTestId('plan-flags-off')).toBeNull();
  });
});

describe('wallet page', () => {
  it('a Free user reads why there is no wallet and is led to the plans', async () => {
    serve(false);
    renderRoutes([{ path: '/wallet', element: <WalletPage /> }], { path: '/wallet', user: makeUser({ plan: 'free' }) });
    expect(await screen.findByText('The wallet comes with Pro and Enterprise')).toBeInTheDocument();
    expect(screen.getByTestId('wallet-compare-plans')).toHaveAttribute('href', '/plans');
  });
});
