import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { notifications } from '../../../lib/notifications';
import { makeUser, renderRoutes } from '../../../test/render';
import DatasetContentPage from '../routes/dataset-content';
import { DATASET_ID as ID, makeDataset } from '../test-support';

const img = (n: number, split = 'train') => ({
  id: `img${n}`,
  split,
  name: `${n}.png`,
  width: 64,
  height: 64,
  className: null,
  labels: [[0, 0.5, 0.5, 0.2, 0.2]],
  thumbUrl: null,
  url: `/raw/${n}`,
});
const REPORT = {
  errors: [],
  warnings: [],
  errorCount: 0,
  warningCount: 0,
  omittedErrors: 0,
  omittedWarnings: 0,
  countsByCode: {},
  leftOut: [{ image: 'bad.png', file: 'bad.txt', line: 1, code: 'labels/class-out-of-range', message: 'class 7 is not in names' }],
  leftOutCount: 1,
  omittedLeftOut: 0,
};

const messages = () => notifications.store.getState().active.map((n) => n.message);

function renderImages(routes: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi({
    [`GET /v1/datasets/${ID}`]: () => makeDataset(),
    [`GET /v1/datasets/${ID}/images`]: () => ({ results: [img(1), img(2), img(3, 'val')], total: 3 }),
    ...routes,
  });
  vi.stubGlobal('fetch', vi.fn(api.fetch));
  renderRoutes([{ path: '/datasets/:id', element: <DatasetContentPage /> }], { path: `/datasets/${ID}`, user: makeUser() });
  return api.calls;
}

describe('Images tab edits', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('adds images and label files to a split in one multipart request and shows what was left out', async () => {
    const calls = renderImages({ [`POST /v1/datasets/${ID}/images`]: () => ({ added: 2, report: REPORT }) });
    fireEvent.click(await screen.findByTestId('add-images', {}, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add images' });
    fireEvent.click(within(dialog).getByText('Val'));
    const files = [new File(['png'], 'n1.png', { type: 'image/png' }), new File(['0 0.5 0.5 0.1 0.1'], 'n1.txt', { type: 'text/plain' })];
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type=file]')!, files);
    fireEvent.click(within(dialog).getByTestId('add-submit'));
    expect(await within(dialog).findByTestId('add-result', {}, { timeout: 5000 })).toHaveTextContent('2 images added to Val');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe(`/v1/datasets/${ID}/images`);
    const form = post.body as FormData;
    expect(form.get('split')).toBe('val');
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['n1.png', 'n1.txt']);
    // The upload's report view lists the pair left out.
    expect(within(dialog).getByText('bad.png')).toBeInTheDocument();
  });

  it('refuses to send nothing', async () => {
    const calls = renderImages({});
    fireEvent.click(await screen.findByTestId('add-images', {}, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add images' });
    fireEvent.click(within(dialog).getByTestId('add-submit'));
    expect(await within(dialog).findByText('Choose at least one file.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('selects images and moves them to a split, then deletes after a confirmation', async () => {
    const calls = renderImages({
      [`POST /v1/datasets/${ID}/images/move`]: () => ({ ok: true }),
      [`POST /v1/datasets/${ID}/images/delete`]: () => ({ ok: true }),
    });
    fireEvent.click(await screen.findByTestId('select-images', {}, { timeout: 8000 }));
    await waitFor(() => expect(screen.getAllByTestId('image-tile')).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Select 1.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select 3.png' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 selected');
    expect(screen.getByRole('button', { name: 'Select 1.png' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByTestId('move-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'To Test' }, { timeout: 5000 }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/images/move'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/images/move'))!.body).toEqual({ imageIds: ['img1', 'img3'], split: 'test' });
    await waitFor(() => expect(messages()).toContain('2 images moved to Test.'));

    fireEvent.click(await screen.findByTestId('select-images'));
    fireEvent.click(await screen.findByRole('button', { name: 'Select 2.png' }));
    fireEvent.click(screen.getByTestId('delete-selected'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete 1 image?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/images/delete'))?.body).toEqual({ imageIds: ['img2'] }));
  });

  it('renames a class and merges one into another', async () => {
    const calls = renderImages({
      [`POST /v1/datasets/${ID}/classes/rename`]: () => ({ ok: true }),
      [`POST /v1/datasets/${ID}/classes/merge`]: () => ({ ok: true }),
    });
    fireEvent.click(await screen.findByTestId('edit-classes', {}, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Classes' });
    fireEvent.change(within(dialog).getByLabelText('Name of class 0'), { target: { value: 'disc' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename to disc' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/classes/rename'))?.body).toEqual({ from: 0, to: 'disc' }));
    await waitFor(() => expect(messages()).toContain('Class circle renamed to disc.'));

    await userEvent.click(within(dialog).getByLabelText('Merge square into another class'));
    // The dropdown lives in a portal beside the modal, which marks its siblings aria-hidden in jsdom.
    await userEvent.click(await screen.findByRole('option', { name: 'circle', hidden: true }));
    const confirm = await within(dialog).findByTestId('class-confirm');
    expect(confirm).toHaveTextContent('Every square label becomes circle');
    fireEvent.click(within(confirm).getByTestId('class-confirm-submit'));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/classes/merge'))?.body).toEqual({ from: [1], into: 0 }));
  });

  it('a viewer who may not edit gets no edit actions', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        fakeApi({
          [`GET /v1/datasets/${ID}`]: () => makeDataset({ abilities: { canEdit: false, canDelete: false, canShare: false } }),
          [`GET /v1/datasets/${ID}/images`]: () => ({ results: [img(1)], total: 1 }),
        }).fetch,
      ),
    );
    renderRoutes([{ path: '/datasets/:id', element: <DatasetContentPage /> }], { path: `/datasets/${ID}`, user: makeUser() });
    await screen.findAllByTestId('image-tile', {}, { timeout: 8000 });
    expect(screen.queryByTestId('image-edit-actions')).toBeNull();
  });
});

describe('Images tab pages', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads the next page after the last one by its cursor (keyset, ADR 0042), never by offset', async () => {
    const asked: string[] = [];
    renderImages({
      [`GET /v1/datasets/${ID}/images`]: (_b: unknown, url: string) => {
        const q = new URL(url, 'http://x').searchParams;
        asked.push(q.toString());
        return q.get('cursor') === 'after-2'
          ? { results: [img(3, 'val')], total: 3, nextCursor: null }
          : { results: [img(1), img(2)], total: 3, nextCursor: 'after-2' };
      },
    });
    expect(await screen.findAllByTestId('image-tile', {}, { timeout: 8000 })).toHaveLength(2);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('images-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('image-tile')).toHaveLength(3));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.queryByTestId('images-load-more')).toBeNull();
    expect(asked).toEqual(['limit=48', 'limit=48&cursor=after-2']);
  });
});
