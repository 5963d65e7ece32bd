import { screen, fireEvent, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderRoutes } from '../../../test/render';
import { FeedbackDialog, feedbackChanged } from './feedback-dialog';

const saved = { rating: 4, review: 'Nice', dates: { created: null, updated: null } };

describe('feedback dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('detects a change of rating or trimmed review', () => {
    expect(feedbackChanged(null, 0, '  ')).toBe(false);
    expect(feedbackChanged(null, 3, '')).toBe(true);
    expect(feedbackChanged(saved, 4, ' Nice ')).toBe(false);
    expect(feedbackChanged(saved, 5, 'Nice')).toBe(true);
    expect(feedbackChanged(saved, 4, 'Nicer')).toBe(true);
  });

  it('shows the subtitle, keeps Save disabled until something changes, and PUTs the feedback', async () => {
    const user = makeUser({ feedback: saved });
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ data: { ...user, feedback: { ...saved, rating: 5 } } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes([{ path: '/', element: <FeedbackDialog opened onClose={() => undefined} user={user} /> }], { user });
    expect(await screen.findByText('Help us improve by sharing your feedback')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const review = screen.getByLabelText('Review');
    expect(review).toHaveAttribute('maxlength', '500');
    await userEvent.type(review, '  ');
    expect(save).toBeDisabled();
    fireEvent.keyDown(screen.getByLabelText('5 stars'), { key: 'Enter' });
    expect(save).toBeEnabled();
    fireEvent.click(save);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/users/me/feedback');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ rating: 5, review: 'Nice' });
  });
});
