import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminJob, AdminUserDetail, AdminUserRow } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import AdminPage from './admin';

afterEach(() => vi.unstubAllGlobals());

const row: AdminUserRow = {
  id: 'U1',
  email: 'ada@lab.test',
  username: 'ada',
  firstName: 'Ada',
  plan: 'free',
  roles: [],
  created: '2026-11-01T00:00:00Z',
  lastLogin: null,
  deleted: null,
  disabled: null,
};
const usage = { count: 2, trashed: 1, bytes: 2048, trashedBytes: 1024 };
const detail: AdminUserDetail = {
  ...row,
  storage: { datasets: usage, models: usage, projects: usage, total: 9216 },
  apiKeys: 3,
  sessions: 2,
  inference: { thisMonth: 5, total: 40 },
  teams: 1,
};
const job = (over: Partial<AdminJob>): AdminJob => ({
  id: 'J1',
  source: 'queue',
  kind: 'dataset.process',
  status: 'failed',
  attempts: 3,
  maxAttempts: 3,
  lastError: 'zip is corrupt',
  logTail: [],
  userId: null,
  user: null,
  model: null,
  dataset: null,
  created: '2026-11-25T00:00:00Z',
  updated: '2026-11-25T00:00:00Z',
  canRetry: true,
  canCancel: false,
  ...over,
});

describe('admin tabs', () => {
  it('users: searches, opens a user, sets the plan by hand with a reason', async () => {
    const api = fakeApi({
      'GET /v1/admin/users/search': (_b, url) => ({
        users: url.includes('q=ada') ? [row] : [row, { ...row, id: 'U2', email: 'bob@lab.test', username: 'bob' }],
        next: null,
      }),
      'GET /v1/admin/users/U1': () => detail,
      'POST /v1/admin/billing/users/U1/plan': () => ({}),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin?tab=users', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByText('bob@lab.test')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search users'), 'ada');
    await waitFor(() => expect(screen.queryByText('bob@lab.test')).toBeNull());
    await userEvent.click(screen.getByText('ada@lab.test'));
    const drawer = await screen.findByTestId('admin-user-drawer');
    expect(within(drawer).getByText('5 this month · 40 in all')).toBeInTheDocument();
    expect(within(drawer).getAllByText(/^2 items, 2(\.0)? KB · in trash: 1, 1(\.0)? KB$/)).toHaveLength(3);
    await userEvent.click(within(drawer).getByRole('combobox', { name: 'Plan' }));
    await userEvent.click(await screen.findByRole('option', { name: 'pro', hidden: true }));
    const set = within(drawer).getByRole('button', { name: 'Set plan' });
    expect(set).toBeDisabled(); // a reason is required
    await userEvent.type(within(drawer).getByLabelText('Reason'), 'Grant');
    await userEvent.click(set);
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/v1/admin/billing/users/U1/plan', body: { plan: 'pro', reason: 'Grant' } }),
    );
  });

  it('jobs: failed and running jobs with errors and log tails, named by model, dataset and user; retry and cancel', async () => {
    const agentJob = job({
      id: 'J2',
      source: 'agent',
      kind: 'export',
      status: 'running',
      lastError: null,
      logTail: ['epoch 3/50'],
      canRetry: false,
      canCancel: true,
      userId: 'U1',
      user: { id: 'U1', username: 'ada' },
      model: { id: 'M1', name: 'boats-v2' },
    });
    const api = fakeApi({
      // Two keyset pages (ADR 0042): the agent job comes with "Load more".
      'GET /v1/admin/jobs': (_body, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'page-2'
          ? { nextCursor: null, items: [agentJob] }
          : { nextCursor: 'page-2', items: [job({ dataset: { id: 'D1', name: 'Harbour boats' } })] },
      'POST /v1/admin/jobs/queue/J1/retry': () => job({ status: 'queued', canRetry: false }),
      'POST /v1/admin/jobs/agent/J2/cancel': () => job({ id: 'J2', status: 'cancelled' }),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin?tab=jobs', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByText('zip is corrupt')).toBeInTheDocument();
    expect(screen.queryByText('epoch 3/50')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('epoch 3/50')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getAllByTestId('admin-job-title').map((e) => e.textContent)).toEqual(['dataset.process · Harbour boats', 'export · boats-v2']);
    expect(screen.getByText(/^by ada · attempt 3 of 3/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(
        api.calls
          .filter((c) => c.method === 'POST')
          .map((c) => c.path)
          .sort(),
      ).toEqual(['/v1/admin/jobs/agent/J2/cancel', '/v1/admin/jobs/queue/J1/retry']),
    );
  });

  it('upgrade requests: the tab shows the open count; Grant sets the plan in one click', async () => {
    const request = {
      id: 'R1',
      plan: 'pro',
      fromPlan: 'free',
      message: 'For the thesis',
      status: 'open',
      created: '2026-11-25T00:00:00Z',
      decided: null,
      user: { uid: 'U1', username: 'ada', email: 'ada@lab.test', plan: 'free' },
      decidedBy: null,
    };
    let open = [request];
    const api = fakeApi({
      'GET /v1/admin/upgrade-requests': () => ({ requests: open, open: open.length }),
      'POST /v1/admin/upgrade-requests/R1/grant': () => ((open = []), { ...request, status: 'granted' }),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin?tab=requests', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByTestId('requests-count')).toHaveTextContent('1');
    expect(await screen.findByText('ada asks for Pro')).toBeInTheDocument();
    expect(screen.getByText('For the thesis')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Grant Pro' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'POST')?.path).toBe('/v1/admin/upgrade-requests/R1/grant'));
    expect(await screen.findByText('No open requests.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('requests-count')).toBeNull());
  });

  it('analytics: event names read as words ("Dataset created", not create_dataset); an unknown one keeps its name', async () => {
    const api = fakeApi({
      'GET /v1/admin/analytics/events': () => ({
        buckets: ['2026-11-25'],
        series: [{ name: 'create_dataset', counts: [3] }],
        activeUsers: [1],
        signUps: [1],
        totals: [
          { name: 'create_dataset', count: 3 },
          { name: 'brand_new_event', count: 1 },
        ],
      }),
      'GET /v1/admin/analytics/top': () => ({ models: [], datasets: [] }),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin?tab=analytics', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByText('Dataset created')).toBeInTheDocument();
    expect(screen.getByText('brand_new_event')).toBeInTheDocument();
    expect(screen.queryByText('create_dataset')).toBeNull();
  });
});
