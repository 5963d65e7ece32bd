import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import AdminPage from './admin';

afterEach(() => vi.unstubAllGlobals());

describe('admin page', () => {
  it('refuses non-admins', () => {
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin', user: makeUser() });
    expect(screen.getByText(/Administrators only/)).toBeInTheDocument();
  });

  it('warns that mail is off, lists users and restores a deleted account', async () => {
    const deleted = makeUser({
      id: 'DeLeTeDuSeR000000000',
      uid: 'DeLeTeDuSeR000000000',
      username: 'gone',
      email: 'gone@example.com',
      dates: { created: '2026-01-01T00:00:00Z', deleted: '2026-11-20T00:00:00Z', lastLogin: null },
    });
    let restored = false;
    const api = fakeApi({
      // One keyset page of accounts (ADR 0042).
      'GET /v1/admin/users': () => ({
        items: [makeUser({ roles: ['admin'] }), restored ? { ...deleted, dates: { ...deleted.dates, deleted: null } } : deleted],
        nextCursor: null,
      }),
      'POST /v1/admin/users/DeLeTeDuSeR000000000/restore': () => {
        restored = true;
        return { ...deleted, dates: { ...deleted.dates, deleted: null } };
      },
      // Two pages of the outbox (ADR 0042): the second comes with the first page's cursor.
      'GET /v1/admin/outbox': (_body, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'page-2'
          ? {
              mailEnabled: false,
              nextCursor: null,
              mails: [
                { id: 'm0', to: 'old@example.com', subject: 'Verify your email', text: 'code', created: '2026-11-19T00:00:00Z', sent: null, error: null },
              ],
            }
          : {
              mailEnabled: false,
              nextCursor: 'page-2',
              mails: [
                {
                  id: 'm1',
                  to: 'gone@example.com',
                  subject: 'Reset your Sightline password',
                  text: 'link',
                  created: '2026-11-20T00:00:00Z',
                  sent: null,
                  error: null,
                },
              ],
            },
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <AdminPage /> }], { path: '/admin', user: makeUser({ roles: ['admin'] }) });
    expect(screen.getByText('Mail is off')).toBeInTheDocument();
    expect(await screen.findByText('Reset your Sightline password')).toBeInTheDocument();
    expect(screen.queryByText('Verify your email')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Verify your email')).toBeInTheDocument();
    expect(screen.getByText('Reset your Sightline password')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
    const row = (await screen.findByText('gone')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/restore'))).toBe(true));
    await waitFor(() => expect(within(screen.getByText('gone').closest('tr')!).queryByRole('button', { name: 'Restore' })).toBeNull());
  });
});
