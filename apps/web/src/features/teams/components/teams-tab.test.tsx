import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Team, TeamCreation } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderRoutes } from '../../../test/render';
import { TeamsTab } from './teams-tab';

const json = (data: unknown, status = 200) => new Response(JSON.stringify({ data }), { status });

function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: 'TeAmAbCdEfGhIjKlMnOp',
    dates: { created: '2026-11-01T00:00:00Z', updated: '2026-11-01T00:00:00Z' },
    meta: { name: 'Vision crew', description: 'We label', image: null },
    owner: { uid: 'u1', username: 'alice' },
    membersCount: 1,
    invited: false,
    role: 'owner',
    invite: null,
    abilities: { canEdit: true, canDelete: true, canShare: true, canInvite: true, canRemove: true, canAddItems: true, canLeave: false },
    ...overrides,
  };
}

function stub(teams: Team[], creation: TeamCreation = { allowed: true, reason: null }) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.endsWith('/v1/teams/creation')) return json(creation);
      if (url.endsWith('/v1/teams') && method === 'GET') return json(teams);
      if (method === 'PATCH') return json(makeTeam({ meta: { ...teams[0]!.meta, description: 'changed' } }));
      return json(null);
    }),
  );
  return calls;
}

const render = () =>
  renderRoutes(
    [
      { path: '/settings', element: <TeamsTab /> },
      { path: '/teams/:id', element: <p>the team page</p> },
    ],
    { path: '/settings', user: makeUser() },
  );

afterEach(() => vi.unstubAllGlobals());

describe('Teams tab', () => {
  it('cards: acronym, singular and plural member counts, owner menu only with abilities, Join on invites', async () => {
    stub([
      makeTeam(),
      makeTeam({
        id: 'TeAmAbCdEfGhIjKlMnO2',
        meta: { name: 'second', description: '', image: null },
        membersCount: 3,
        role: null,
        invited: true,
        invite: { id: 'i', role: 'member', expiresAt: '2026-12-01T00:00:00Z' },
        abilities: { canEdit: false, canDelete: false, canShare: false, canInvite: false, canRemove: false, canAddItems: false, canLeave: false },
      }),
    ]);
    render();
    const cards = await screen.findAllByTestId('team-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByTestId('team-avatar')).toHaveTextContent('VC');
    expect(within(cards[0]!).getByText('1 member')).toBeInTheDocument();
    expect(within(cards[0]!).getByTestId('team-menu')).toBeInTheDocument();
    expect(within(cards[1]!).getByTestId('team-avatar')).toHaveTextContent('SE');
    expect(within(cards[1]!).getByText('3 members')).toBeInTheDocument();
    expect(within(cards[1]!).queryByTestId('team-menu')).toBeNull();
    expect(within(cards[1]!).getByRole('button', { name: 'Join' })).toBeInTheDocument();
    expect(within(cards[1]!).getByText('No description')).toBeInTheDocument();
  });

  it('create is disabled with the reason and a billing link on the free plan', async () => {
    stub([], { allowed: false, reason: 'plan' });
    render();
    expect(await screen.findByTestId('team-create-disabled')).toHaveTextContent('Teams are available on the Pro and Enterprise plans.');
    expect(screen.getByRole('link', { name: 'See plans in Billing' })).toHaveAttribute('href', '/settings?tab=billing');
    expect(screen.getByTestId('team-create')).toBeDisabled();
  });

  it('edit: Accept is disabled while nothing changed; 43 characters are refused; sends only what changed, trimmed', async () => {
    const calls = stub([makeTeam()]);
    render();
    fireEvent.click(await screen.findByTestId('team-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const accept = await screen.findByTestId('team-accept');
    expect(accept).toHaveTextContent('Save'); // editing saves; the New team dialog says Create
    expect(accept).toBeDisabled();
    const name = screen.getByTestId('team-name');
    fireEvent.change(name, { target: { value: 'x'.repeat(43) } });
    expect(screen.getByText('At most 42 characters')).toBeInTheDocument();
    expect(accept).toBeDisabled();
    fireEvent.change(name, { target: { value: '  Vision crew  ' } });
    expect(accept).toBeDisabled(); // trimmed, it is the same name
    fireEvent.change(screen.getByTestId('team-description'), { target: { value: 'd'.repeat(101) } });
    expect(screen.getByText('At most 100 characters')).toBeInTheDocument();
    expect(accept).toBeDisabled();
    fireEvent.change(screen.getByTestId('team-description'), { target: { value: '  changed  ' } });
    expect(accept).toBeEnabled();
    fireEvent.click(accept);
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toBeDefined());
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: expect.stringContaining('/v1/teams/TeAmAbCdEfGhIjKlMnOp'),
      body: { meta: { description: 'changed' } },
    });
  });

  it('clicking a card opens /teams/{id}; its menu does not', async () => {
    stub([makeTeam()]);
    render();
    fireEvent.click(await screen.findByTestId('team-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    expect(await screen.findByTestId('team-accept')).toBeInTheDocument();
    expect(screen.queryByText('the team page')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByText('We label'));
    expect(await screen.findByText('the team page')).toBeInTheDocument();
  });
});
