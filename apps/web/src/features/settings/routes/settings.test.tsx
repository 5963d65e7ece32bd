import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderRoutes } from '../../../test/render';
import SettingsPage from './settings';

const json = (data: unknown, status = 200) => new Response(JSON.stringify({ data }), { status });
const routes = [{ path: '/settings', element: <SettingsPage /> }];

describe('settings page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('selects the tab from ?tab=, profile by default', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json([])),
    );
    renderRoutes(routes, { path: '/settings', user: makeUser() });
    expect(await screen.findByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows a new API key once, in both spellings, and lists keys', async () => {
    const created = {
      id: 'k1',
      name: 'CI',
      prefix: 'ul_1234',
      dates: { created: '2026-01-01T00:00:00Z', lastUsed: null },
      key: `ul_${'a'.repeat(40)}`,
      legacyKey: `ul${'a'.repeat(40)}`,
    };
    const keys: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/v1/api-keys' && init?.method === 'POST') {
          keys.push({ ...created, key: undefined, legacyKey: undefined });
          return json(created, 201);
        }
        return json(keys);
      }),
    );
    renderRoutes(routes, { path: '/settings?tab=api-keys', user: makeUser() });
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'CI');
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const secrets = await screen.findAllByTestId('api-key-secret');
    expect(secrets.map((s) => s.textContent)).toEqual([created.key, created.legacyKey]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).not.toBeInTheDocument());
    expect(await screen.findByTestId('api-key-row')).toHaveTextContent('CI');
  });

  it('an unverified email offers to send the link again (mail on) or says none is needed (mail off)', async () => {
    const fetchMock = vi.fn(async () => json({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const { queryClient } = renderRoutes(routes, { path: '/settings', user: makeUser({ emailVerified: false }) });
    expect(await screen.findByText('This server sends no mail, so no verification is needed.')).toBeInTheDocument();
    queryClient.setQueryData(['config'], (c: Record<string, unknown>) => ({ ...c, mail: { enabled: true, verificationRequired: true } }));
    fireEvent.click(await screen.findByTestId('resend-verification'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/v1/auth/verify/resend', expect.objectContaining({ method: 'POST' })));
  });

  it('refuses to change the email to the current one without calling the server', async () => {
    const fetchMock = vi.fn(async () => json([]));
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes(routes, { path: '/settings', user: makeUser() });
    await userEvent.type(await screen.findByLabelText('New email'), 'ADA@example.com');
    await userEvent.type(screen.getByLabelText('Password (to confirm)'), 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    expect(await screen.findByText('This is already your email.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith('/v1/users/me/email', expect.anything());
  });
});
