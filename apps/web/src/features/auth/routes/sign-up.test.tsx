import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderRoutes } from '../../../test/render';
import SignUpPage from './sign-up';

describe('sign-up page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates with the contract, sends the four fields, and asks to check the mail when verification is required', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ data: { user: makeUser(), result: 'signup-successful', verificationRequired: true } }), { status: 201 }));
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
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ error: { code: 'error/in-use', message: 'This email is already in use' } }), { status: 409 }));
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
});
