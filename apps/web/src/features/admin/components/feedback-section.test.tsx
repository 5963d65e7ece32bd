import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { FeedbackSection } from './feedback-section';

afterEach(() => vi.unstubAllGlobals());

const entry = (userId: string, review: string) => ({
  userId,
  username: userId,
  email: `${userId}@lab.test`,
  rating: 4,
  review,
  created: '2026-11-20T00:00:00Z',
  updated: '2026-11-20T00:00:00Z',
});

describe('admin feedback', () => {
  it('shows the summary of the first page and adds older reviews with Load more (ADR 0042)', async () => {
    const api = fakeApi({
      'GET /v1/admin/feedback': (_body, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'page-2'
          ? { average: null, count: null, distribution: null, nextCursor: null, entries: [entry('older', 'second page review')] }
          : { average: 4, count: 2, distribution: [0, 0, 0, 2, 0], nextCursor: 'page-2', entries: [entry('newer', 'first page review')] },
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/admin', element: <FeedbackSection /> }], { path: '/admin', user: makeUser({ roles: ['admin'] }) });
    expect(await screen.findByText('first page review')).toBeInTheDocument();
    expect(screen.getByTestId('feedback-average')).toHaveTextContent('4.00');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('second page review')).toBeInTheDocument();
    // The summary stays the first page's, not the later page's nulls.
    expect(screen.getByTestId('feedback-average')).toHaveTextContent('4.00');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });
});
