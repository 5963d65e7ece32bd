import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { UsersTable } from './users-table';

afterEach(() => vi.unstubAllGlobals());

describe('admin accounts table', () => {
  it('shows the first page of accounts and adds older ones with Load more (ADR 0042)', async () => {
    const cursors: Array<string | null> = [];
    const api = fakeApi({
      'GET /v1/admin/users': (_body, url) => {
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        cursors.push(cursor);
        return cursor === 'page-2'
          ? { items: [makeUser({ id: 'older', username: 'older-account', email: 'older@lab.test' })], nextCursor: null }
          : { items: [makeUser({ id: 'newer', username: 'newer-account', email: 'newer@lab.test' })], nextCursor: 'page-2' };
      },
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <UsersTable /> }], { path: '/admin', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByText('newer-account')).toBeInTheDocument();
    expect(screen.queryByText('older-account')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('older-account')).toBeInTheDocument();
    expect(screen.getByText('newer-account')).toBeInTheDocument();
    expect(cursors).toEqual([null, 'page-2']);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });
});
