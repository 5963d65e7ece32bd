import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../test/render';
import SignInPage from './sign-in';

const routes = [{ path: '/signin', element: <SignInPage /> }];
const errorResponse = (status: number, code: string, message: string) => new Response(JSON.stringify({ error: { code, message } }), { status });

async function submit() {
  await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.com');
  await userEvent.type(screen.getByLabelText(/Password/, { selector: 'input' }), 'secret123');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the network alert of spec §8 when fetch fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderRoutes(routes, { path: '/signin', user: null });
    await submit();
    expect(await screen.findByTestId('network-error')).toHaveTextContent('The network is experiencing difficulties. Please check your internet connection.');
  });

  it('shows the account-deleted alert', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => errorResponse(403, 'auth/account-deleted', 'This account is currently being deleted.')),
    );
    renderRoutes(routes, { path: '/signin', user: null });
    await submit();
    expect(await screen.findByTestId('auth-error')).toHaveTextContent('This account is currently being deleted.');
  });

  it('offers to resend the verification mail for an unverified email', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/resend') ? new Response(JSON.stringify({ data: { ok: true } })) : errorResponse(403, 'auth/email-not-verified', 'verify'),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes(routes, { path: '/signin', user: null });
    await submit();
    fireEvent.click(await screen.findByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByRole('button', { name: 'Email sent' })).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledWith('/v1/auth/verify/resend', expect.objectContaining({ method: 'POST' }));
  });

  it('says how long to wait when sign-in is throttled (429)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => errorResponse(429, 'error/rate-limited', 'Too many sign-in attempts. Try again in 42 s.')),
    );
    renderRoutes(routes, { path: '/signin', user: null });
    await submit();
    const alert = await screen.findByTestId('auth-error');
    expect(alert).toHaveTextContent('Too many sign-in attempts. Try again in 42 s.');
    expect(alert).toHaveAttribute('data-code', 'error/rate-limited');
  });

  it('explains an OAuth error code from the query', async () => {
    renderRoutes(routes, { path: '/signin?error=auth/account-exists-with-different-credential:password', user: null });
    expect(await screen.findByTestId('auth-error')).toHaveTextContent('An account already exists with this email. Sign in with password first.');
  });
});
