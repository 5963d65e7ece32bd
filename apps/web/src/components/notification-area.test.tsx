import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { notifications } from '../lib/notifications';
import { NotificationArea } from './notification-area';

function renderArea() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <NotificationArea /> },
      {
        path: '/models/:id',
        element: (
          <>
            <div>model page</div>
            <NotificationArea />
          </>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('<NotificationArea>', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    notifications.reset();
    vi.useRealTimers();
  });

  it('pauses the countdown while the pointer is over a toast', () => {
    renderArea();
    act(() => void notifications.success('Saved'));
    const toast = screen.getByTestId('notification');
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('shows the type, a close button unless close=false, and the action navigates inside the app', () => {
    const router = renderArea();
    act(() => void notifications.error('Unable to Update Model', { close: false }));
    expect(screen.getByTestId('notification')).toHaveAttribute('data-type', 'error');
    expect(screen.queryByRole('button', { name: 'Dismiss notification' })).not.toBeInTheDocument();
    act(() => void notifications.success('Model Updated', { link: { text: 'Open', path: '/models/abc' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(router.state.location.pathname).toBe('/models/abc');
    expect(screen.queryByText('Model Updated')).not.toBeInTheDocument();
  });

  it('dismisses with the close button', () => {
    renderArea();
    act(() => void notifications.success('Closable'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Closable')).not.toBeInTheDocument();
  });
});
