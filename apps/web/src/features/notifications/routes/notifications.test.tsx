import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppNotification, NotificationsPage as RecordsPage } from '@sightline/contracts';
import { makeUser, renderRoutes } from '../../../test/render';
import NotificationsPage from './notifications';

const record = (over: Partial<AppNotification>): AppNotification => ({
  id: 'n1',
  kind: 'dataset.processed',
  read: false,
  created: '2030-01-01T10:00:00.000Z',
  subject: { kind: 'dataset', id: 'd1', name: 'Shapes' },
  detail: null,
  invite: null,
  path: '/datasets/d1',
  ...over,
});

describe('notifications page (ADR 0028)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the records with Join on a pending invite, no empty state under it, and marks them read once on open', async () => {
    const page: RecordsPage = {
      items: [
        record({
          id: 'n2',
          kind: 'team.invite',
          subject: { kind: 'team', id: 't1', name: 'Night shift' },
          path: '/teams/t1',
          invite: { role: 'member', invitedBy: 'ann', expires: '2030-01-08T10:00:00.000Z', pending: true },
        }),
        record({ id: 'n1', kind: 'dataset.failed', read: true, detail: 'No images found' }),
      ],
      nextCursor: null,
      unread: 1,
    };
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/v1/notifications/read-all') ? new Response(JSON.stringify({ data: { unread: 0 } })) : new Response(JSON.stringify({ data: page })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], { path: '/notifications', user: makeUser() });
    const rows = await screen.findAllByTestId('notification-record');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('ann invited you to join the team “Night shift”');
    expect(within(rows[0]!).getByRole('button', { name: 'Join' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText('New')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Dataset “Shapes” could not be processed');
    expect(rows[1]).toHaveTextContent('No images found');
    expect(within(rows[1]!).queryByRole('button', { name: 'Join' })).toBeNull();
    expect(screen.queryByTestId('notifications-empty')).toBeNull();
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/v1/notifications/read-all'))).toHaveLength(1));
  });

  it('says briefly that nothing is there yet', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ data: { items: [], nextCursor: null, unread: 0 } }))),
    );
    renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], { path: '/notifications', user: makeUser() });
    expect(await screen.findByTestId('notifications-empty')).toHaveTextContent('Nothing yet');
  });
});
