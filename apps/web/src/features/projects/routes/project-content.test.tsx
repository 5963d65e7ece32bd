import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model } from '@sightline/contracts';
import { fakeApi, makeModel, makeProject, READ_ONLY } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { sortProjectModels } from '../api/get-project-models';
import ProjectContentPage from './project-content';

const routes = [{ path: '/projects/:id', element: <ProjectContentPage /> }];
const project = makeProject({
  id: 'p1',
  meta: { name: 'Shapes', description: 'three shapes', privacy: 'private' },
  totals: { models: 3, bytes: 3072 },
  models: { count: 3, exports: { onnx: 2048 } },
});
const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 10, min)).toISOString();
const inProject = (name: string, extra: Partial<Model> = {}) =>
  makeModel({ meta: { name, description: '', privacy: 'private' }, project: { id: 'p1', name: 'Shapes' }, totals: { bytes: 1024 }, ...extra });

const names = () => screen.getAllByTestId('project-model-name').map((a) => a.textContent);

/** A project on a fake server that keeps the order it is sent, as the real one does. */
function serve(initial: Model[], p = project) {
  let models = initial;
  const api = fakeApi({
    'GET /v1/projects/p1': () => p,
    'GET /v1/projects/p1/models': () => models,
    'PUT /v1/projects/p1/order': (body) => {
      const ids = (body as { modelIds: string[] }).modelIds;
      models = models.map((m) => ({ ...m, order: ids.indexOf(m.id) + 1 }));
      return { ok: true };
    },
  });
  vi.stubGlobal('fetch', vi.fn(api.fetch));
  return api;
}

describe('project models ordering (spec §3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('without any order: most recently updated first', () => {
    const a = inProject('a', { dates: { ...makeModel().dates, updated: at(1) } });
    const b = inProject('b', { dates: { ...makeModel().dates, updated: at(3) } });
    const c = inProject('c', { dates: { ...makeModel().dates, updated: at(2) } });
    expect(sortProjectModels([a, b, c]).map((m) => m.meta.name)).toEqual(['b', 'c', 'a']);
  });

  it('with an order: by order from 1, unordered models last', () => {
    const a = inProject('a', { order: 2 });
    const b = inProject('b', { order: null, dates: { ...makeModel().dates, updated: at(9) } });
    const c = inProject('c', { order: 1 });
    expect(sortProjectModels([a, b, c]).map((m) => m.meta.name)).toEqual(['c', 'a', 'b']);
  });

  it('renders the models in order with totals, and "move down" saves the new order', async () => {
    // Sent out of order on purpose: the page keeps the spec's order whatever the wire order.
    const [second, first, third] = [inProject('second', { order: 2 }), inProject('first', { order: 1 }), inProject('third', { order: 3 })];
    const api = serve([second!, first!, third!]);
    renderRoutes(routes, { path: '/projects/p1', user: makeUser() });
    await waitFor(() => expect(names()).toEqual(['first', 'second', 'third']));
    expect(screen.getByTestId('project-total-models')).toHaveTextContent('3');
    expect(screen.getByTestId('project-total-size')).toHaveTextContent('3.0 KB');
    expect(screen.getByTestId('project-exports')).toHaveTextContent('onnx · 2.0 KB');

    fireEvent.click(screen.getByRole('button', { name: 'Move first down' }));
    await waitFor(() => expect(names()).toEqual(['second', 'first', 'third']));
    const put = api.calls.find((c) => c.method === 'PUT');
    expect((put?.body as { modelIds: string[] }).modelIds).toEqual([second!.id, first!.id, third!.id]);
    expect(screen.getByTestId('reorder-announcement')).toHaveTextContent('first moved to position 2 of 3.');
  });

  it('drag and drop moves a row onto another position', async () => {
    const models = [inProject('one', { order: 1 }), inProject('two', { order: 2 }), inProject('three', { order: 3 })];
    const api = serve(models);
    renderRoutes(routes, { path: '/projects/p1', user: makeUser() });
    await waitFor(() => expect(names()).toEqual(['one', 'two', 'three']));
    const rows = screen.getAllByTestId('project-model');
    const dataTransfer = { effectAllowed: '', dropEffect: '', setData: vi.fn(), getData: vi.fn() };
    fireEvent(rows[2]!, Object.assign(createEvent.dragStart(rows[2]!), { dataTransfer }));
    fireEvent(rows[0]!, Object.assign(createEvent.dragOver(rows[0]!), { dataTransfer }));
    expect(rows[0]).toHaveAttribute('data-drop', 'before');
    fireEvent(rows[0]!, Object.assign(createEvent.drop(rows[0]!), { dataTransfer }));
    await waitFor(() => expect(names()).toEqual(['three', 'one', 'two']));
    const put = api.calls.find((c) => c.method === 'PUT');
    expect((put?.body as { modelIds: string[] }).modelIds).toEqual([models[2]!.id, models[0]!.id, models[1]!.id]);
  });

  it('puts the old order back when the server refuses', async () => {
    const models = [inProject('x', { order: 1 }), inProject('y', { order: 2 })];
    const api = fakeApi({
      'GET /v1/projects/p1': () => project,
      'GET /v1/projects/p1/models': () => models,
      'PUT /v1/projects/p1/order': () => new Response(JSON.stringify({ error: { code: 'error/validation', message: 'nope' } }), { status: 400 }),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes(routes, { path: '/projects/p1', user: makeUser() });
    await waitFor(() => expect(names()).toEqual(['x', 'y']));
    fireEvent.click(screen.getByRole('button', { name: 'Move y up' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    await waitFor(() => expect(names()).toEqual(['x', 'y']));
  });

  it('read-only for someone who may not edit: no reorder, share or delete', async () => {
    serve([inProject('a', { order: 1, abilities: READ_ONLY }), inProject('b', { order: 2, abilities: READ_ONLY })], {
      ...project,
      meta: { ...project.meta, privacy: 'unlisted' },
      abilities: READ_ONLY,
    });
    renderRoutes(routes, { path: '/projects/p1', user: null });
    await waitFor(() => expect(names()).toEqual(['a', 'b']));
    expect(screen.queryByRole('button', { name: /Move a/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload model' })).not.toBeInTheDocument();
    expect(screen.getAllByTestId('project-model')[0]).not.toHaveAttribute('draggable', 'true');
    expect(within(screen.getByTestId('project-page')).getByText('Unlisted')).toBeInTheDocument();
  });

  it('moves a model to another project: it leaves this list', async () => {
    const a = inProject('keeper', { order: 1 });
    const b = inProject('mover', { order: 2 });
    const target = makeProject({ id: 'p2', meta: { name: 'Elsewhere', description: '', privacy: 'public' } });
    let models = [a, b];
    const api = fakeApi({
      'GET /v1/projects/p1': () => project,
      'GET /v1/projects/p1/models': () => models,
      'GET /v1/projects': () => ({ results: [project, target], total: 2, lastRecordId: null }),
      [`POST /v1/models/${b.id}/transfer`]: () => {
        models = [a];
        return { ...b, project: { id: 'p2', name: 'Elsewhere' }, meta: { ...b.meta, privacy: 'public' } };
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes(routes, { path: '/projects/p1', user: makeUser() });
    await waitFor(() => expect(names()).toEqual(['keeper', 'mover']));
    fireEvent.click(screen.getByRole('button', { name: 'Actions for mover' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Move to another project…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move model' });
    const select = await within(dialog).findByLabelText('Project');
    await waitFor(() => expect(select).toBeEnabled());
    await userEvent.click(select);
    // The dropdown lives in a portal beside the modal, which marks its siblings aria-hidden in jsdom.
    await userEvent.click(await screen.findByRole('option', { name: 'Elsewhere', hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(names()).toEqual(['keeper']));
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'POST', path: `/v1/models/${b.id}/transfer`, body: { projectId: 'p2' } }));
  });
});
