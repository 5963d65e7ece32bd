import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRedirect } from '../../../lib/auth';
import { makeUser, renderRoutes } from '../../../test/render';
import SignUpPage from './sign-up';

describe('sign-up page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('validates with the contract, sends the four fields, and asks to check the mail when verification is required', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ data: { user: makeUser(), result: 'signup-successful', verificationRequired: true } }), { status: 201 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes([{ path: '/signup', element: <SignUpPage /> }], { path: '/signup', user: null });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/First name/), 'Ada');
    await userEvent.type(screen.getByLabelText(/Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret123');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('check-email')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/auth/signup');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'ada@example.com', password: 'secret123', username: 'ada', firstName: 'Ada' });
  });

  it("shows the spec's 'Unable to Create User' over the reason when the sign-up is refused (spec §8)", async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ error: { code: 'error/in-use', message: 'This email is already in use' } }), { status: 409 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes([{ path: '/signup', element: <SignUpPage /> }], { path: '/signup', user: null });
    await userEvent.type(screen.getByLabelText(/First name/), 'Ada');
    await userEvent.type(screen.getByLabelText(/Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret123');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const alert = await screen.findByTestId('auth-error');
    expect(alert).toHaveTextContent('Unable to Create User');
    expect(alert).toHaveTextContent('This email is already in use.');
    expect(alert).toHaveAttribute('data-code', 'error/in-use');
  });

  it('brought by a team invite link: says whose team, takes the invited address, sends the invite along and goes on to the team (ADR 0028)', async () => {
    sessionStorage.setItem('sightline.redirect', '/teams/T1?invite=tok-1234567890');
    const preview = {
      team: { id: 'T1', name: 'Harbour crew' },
      email: 'ina@example.com',
      role: 'member',
      invitedBy: 'ann',
      expiresAt: '2030-01-01T00:00:00.000Z',
    };
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/v1/teams/T1/invite-preview?token=tok-1234567890')
        ? new Response(JSON.stringify({ data: preview }), { status: 200 })
        : new Response(JSON.stringify({ data: { user: makeUser({ email: 'ina@example.com' }), result: 'signup-successful', verificationRequired: false } }), {
            status: 201,
          }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes([{ path: '/signup', element: <SignUpPage /> }], { path: '/signup', user: null });
    expect(await screen.findByTestId('invite-notice')).toHaveTextContent('ann invited you to the team “Harbour crew”');
    expect(screen.getByLabelText(/Email/)).toHaveValue('ina@example.com');
    await userEvent.type(screen.getByLabelText(/First name/), 'Ina');
    await userEvent.type(screen.getByLabelText(/Username/), 'ina');
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret123');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'ina@example.com',
      password: 'secret123',
      username: 'ina',
      firstName: 'Ina',
      invite: { team: 'T1', token: 'tok-1234567890' },
    });
    // Not the Welcome page: the saved path still opens the invite.
    await vi.waitFor(() => expect(getRedirect()).toBe('/teams/T1?invite=tok-1234567890'));
  });
});
