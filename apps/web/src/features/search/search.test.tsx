import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RecentItem } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeaderActions } from '../../components/header-actions';
import { makeUser, renderRoutes } from '../../test/render';
import { RecentCard, SearchBox } from './index';

const items: RecentItem[] = [
  { kind: 'project', id: 'p1', name: 'Harbour cranes', updated: new Date().toISOString(), parentName: null },
  { kind: 'model', id: 'm1', name: 'crane-detector', updated: new Date().toISOString(), parentName: 'Harbour cranes' },
  { kind: 'team', id: 't1', name: 'Crane crew', updated: new Date().toISOString(), parentName: null },
];
const json = (data: unknown) => new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });

function stubFetch() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.startsWith('/v1/recent')) return json({ results: items.slice(0, 2) });
      if (url.startsWith('/v1/search')) return json({ results: new URL(url, 'http://x').searchParams.get('q') === 'none' ? [] : items });
      return json({});
    }),
  );
  return calls;
}
afterEach(() => vi.unstubAllGlobals());

const mobile = (matches: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('max-width'),
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  }));

describe('Recent card and search (ADR 0018)', () => {
  it('Recent lists items of every collection with links and kinds', async () => {
    const calls = stubFetch();
    renderRoutes([{ path: '/', element: <RecentCard limit={3} /> }], { user: makeUser() });
    const list = await screen.findByTestId('recent-items');
    expect(
      within(list)
        .getAllByTestId('item-name')
        .map((n) => n.textContent),
    ).toEqual(['Harbour cranes', 'crane-detector']);
    expect(
      within(list)
        .getAllByTestId('item-link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/projects/p1', '/models/m1']);
    expect(list).toHaveTextContent('Model in Harbour cranes');
    expect(calls).toContain('/v1/recent?limit=3');
  });

  it('search asks the server after typing and says when nothing matches', async () => {
    const calls = stubFetch();
    renderRoutes([{ path: '/', element: <SearchBox /> }], { user: makeUser() });
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'cran' } });
    expect(await screen.findAllByTestId('item-name')).toHaveLength(3);
    expect(screen.getAllByTestId('item-link')[2]).toHaveAttribute('href', '/teams/t1');
    expect(calls.some((c) => c.startsWith('/v1/search?q=cran'))).toBe(true);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'none' } });
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('Nothing named like “none”.');
  });
});

describe('HeaderActions', () => {
  const actions = (onEdit: () => void) => [
    { key: 'share', label: 'Share', onClick: () => undefined },
    { key: 'edit', label: 'Edit', onClick: onEdit, testId: 'edit' },
  ];

  it('shows buttons on wide screens', () => {
    mobile(false);
    renderRoutes([{ path: '/', element: <HeaderActions actions={actions(() => undefined)} /> }], { user: makeUser() });
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(screen.queryByTestId('header-actions-menu')).toBeNull();
  });

  it('folds several buttons into one menu on phones; an item still acts', async () => {
    mobile(true);
    const onEdit = vi.fn();
    renderRoutes([{ path: '/', element: <HeaderActions actions={actions(onEdit)} /> }], { user: makeUser() });
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    fireEvent.click(screen.getByTestId('header-actions-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    await waitFor(() => expect(onEdit).toHaveBeenCalledTimes(1));
  });
});
