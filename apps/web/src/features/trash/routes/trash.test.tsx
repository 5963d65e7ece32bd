import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrashItem } from '@sightline/contracts';
import { fakeApi, makeTrashItem } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import TrashPage from './trash';

const routes = [{ path: '/trash', element: <TrashPage /> }];

/** The server's pages: `pageSize` items after the cursor, with the whole trash's count and bytes. */
function setup(initial: TrashItem[], pageSize = 50) {
  let items = initial.slice();
  const api = fakeApi({
    'GET /v1/trash': (_, url) => {
      const from = Number(new URL(url, 'http://x').searchParams.get('cursor') ?? 0);
      const page = items.slice(from, from + pageSize);
      return {
        items: page,
        nextCursor: from + pageSize < items.length ? String(from + pageSize) : null,
        count: from === 0 ? items.length : null,
        bytes: from === 0 ? items.filter((i) => !i.parent).reduce((s, i) => s + i.bytes, 0) : null,
      };
    },
    'POST /v1/trash/project/p1/restore': () => {
      // A restored project brings back the models that went with it.
      items = items.filter((i) => i.id !== 'p1' && i.parent?.id !== 'p1');
      return { ok: true };
    },
    'DELETE /v1/trash/dataset/d1': () => {
      items = items.filter((i) => i.id !== 'd1');
      return { ok: true };
    },
    'DELETE /v1/trash': () => {
      const removed = items.length;
      items = [];
      return { removed };
    },
  });
  vi.stubGlobal('fetch', vi.fn(api.fetch));
  renderRoutes(routes, { path: '/trash', user: makeUser() });
  return api;
}

const project = makeTrashItem({ id: 'p1', type: 'project', name: 'Doomed', bytes: 2048, deleted: new Date(Date.now() - 2 * 86_400_000).toISOString() });
const model = makeTrashItem({ id: 'm1', type: 'model', name: 'shapes', bytes: 1024, parent: { type: 'project', id: 'p1', name: 'Doomed' } });
const dataset = makeTrashItem({ id: 'd1', type: 'dataset', name: 'coco8', bytes: 5 * 1024 * 1024 });
const row = (id: string) => screen.getAllByTestId('trash-row').find((r) => r.getAttribute('data-id') === id)!;

describe('trash page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists every item with its type, deleted date, expiry and size', async () => {
    setup([project, model, dataset]);
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(3));
    expect(within(row('d1')).getByTestId('trash-size')).toHaveTextContent('5.0 MB');
    expect(within(row('p1')).getByTestId('trash-expires')).toHaveTextContent('in 28 days');
    expect(within(row('m1')).getByText('in Doomed · comes back when the project is restored')).toBeInTheDocument();
    // The model comes back with its project: restoring it alone is not offered.
    expect(within(row('m1')).getByRole('button', { name: 'Restore shapes' })).toBeDisabled();
    expect(screen.getByTestId('trash-summary')).toHaveTextContent('3 items');
  });

  it('restores a project, and its model leaves the trash with it', async () => {
    const api = setup([project, model, dataset]);
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(3));
    fireEvent.click(within(row('p1')).getByRole('button', { name: 'Restore Doomed' }));
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(1));
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/v1/trash/project/p1/restore' }));
    expect(row('d1')).toBeInTheDocument();
  });

  it('deletes permanently only after confirming', async () => {
    const api = setup([dataset]);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete coco8 permanently' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete permanently?' });
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete coco8 permanently' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete permanently' }));
    await waitFor(() => expect(screen.getByTestId('empty-state')).toHaveTextContent('The trash is empty'));
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/v1/trash/dataset/d1' }));
  });

  it('empties the trash after confirming', async () => {
    const api = setup([project, model, dataset]);
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Empty trash' }));
    const dialog = await screen.findByRole('dialog', { name: 'Empty the trash?' });
    expect(dialog).toHaveTextContent('All 3 items in the trash');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Empty trash' }));
    await waitFor(() => expect(screen.getByTestId('empty-state')).toBeInTheDocument());
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/v1/trash' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Empty trash' })).toBeDisabled();
  });

  it('shows the first page with the whole trash in the summary, and older items on request', async () => {
    const api = setup([project, model, dataset], 2);
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(2));
    expect(screen.getByTestId('trash-summary')).toHaveTextContent('3 items');
    fireEvent.click(screen.getByRole('button', { name: 'Show older items' }));
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(3));
    expect(row('d1')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'GET' && c.path === '/v1/trash')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Show older items' })).not.toBeInTheDocument();
  });
});
