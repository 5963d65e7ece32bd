import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExploreItem } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import ExplorePage from './explore';

afterEach(() => vi.unstubAllGlobals());

const item = (over: Partial<ExploreItem>): ExploreItem => ({
  kind: 'dataset',
  id: 'D1',
  name: 'Harbour boats',
  description: 'Boats at dawn',
  owner: { username: 'ada' },
  updated: new Date().toISOString(),
  task: 'detect',
  parentName: null,
  ...over,
});

describe('explore page (ADR 0030)', () => {
  it("lists others' public items with links, searches by name and kind, and loads the next page", async () => {
    const api = fakeApi({
      'GET /v1/explore': (_b, url) => {
        const q = new URL(url, 'http://x').searchParams;
        if (q.get('cursor') === 'c2') return { items: [item({ kind: 'model', id: 'M1', name: 'boats-v2', parentName: 'Harbour', task: null })], next: null };
        if (q.get('q') === 'zzz') return { items: [], next: null };
        return { items: [item({}), item({ kind: 'project', id: 'P1', name: 'Harbour', task: null, description: '' })], next: 'c2' };
      },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { router } = renderRoutes([{ path: '/explore', element: <ExplorePage /> }], { path: '/explore', user: makeUser() });
    expect(await screen.findByRole('link', { name: 'Harbour boats' })).toHaveAttribute('href', '/datasets/D1');
    expect(screen.getByRole('link', { name: 'Harbour' })).toHaveAttribute('href', '/projects/P1');
    expect(screen.getAllByTestId('explore-item')[0]).toHaveTextContent(/by ada · updated/);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('link', { name: 'boats-v2' })).toHaveAttribute('href', '/models/M1');
    expect(screen.getAllByTestId('explore-item')[2]).toHaveTextContent('in Harbour');

    // the kind and the search live in the address, so a filtered list can be shared
    fireEvent.click(screen.getByRole('radio', { name: 'Models' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=model'));
    fireEvent.change(screen.getByTestId('explore-search'), { target: { value: 'zzz' } });
    expect(await screen.findByText('No public item matches')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('zzz');
  });
});
