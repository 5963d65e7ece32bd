import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../lib/test-factories';
import { notifications } from '../../../lib/notifications';
import { realtime } from '../../../lib/realtime';
import { makeUser, renderRoutes } from '../../../test/render';
import type { DatasetDiff } from '../api/get-dataset-diff';
import type { DatasetVersion } from '../api/get-dataset-versions';
import DatasetContentPage from '../routes/dataset-content';
import { DATASET_ID as ID, makeDataset } from '../test-support';

const v = (number: number, extra: Partial<DatasetVersion> = {}): DatasetVersion => ({
  id: `ver${number}`,
  datasetId: ID,
  number,
  note: `note ${number}`,
  images: 4 + (number - 1) * 10,
  splits: { train: 3 + (number - 1) * 10, val: 1, test: 0 },
  classes: number === 1 ? ['circle', 'square'] : ['disc', 'square'],
  createdAt: '2026-11-02T10:00:00.000Z',
  createdBy: { id: 'AbCdEfGhIjKlMnOpQrSt', username: 'ada' },
  models: 0,
  ...extra,
});

const image = (n: number, split = 'train') => ({
  id: `img${n}`,
  name: `added_${n}.jpg`,
  split,
  width: 64,
  height: 48,
  labels: [[0, 0.5, 0.5, 0.2, 0.2]],
  thumbUrl: `/thumbs/${n}.jpg`,
  url: `/raw/${n}.jpg`,
});

const DIFF: DatasetDiff = {
  added: Array.from({ length: 10 }, (_, i) => image(i + 1)),
  removed: [],
  moved: [{ image: image(20, 'val'), fromSplit: 'train', toSplit: 'val' }],
  labelsChanged: [
    {
      image: image(30),
      before: [[0, 0.5, 0.5, 0.2, 0.2]],
      after: [
        [1, 0.3, 0.3, 0.1, 0.1],
        [0, 0.6, 0.6, 0.2, 0.2],
      ],
      classBefore: null,
      classAfter: null,
    },
  ],
  classesRenamed: [{ index: 0, from: 'circle', to: 'disc' }],
  classesAdded: [],
  classesRemoved: [],
  histogram: { from: { circle: 4, square: 2 }, to: { disc: 15, square: 3 } },
  from: 1,
  to: 2,
};

function renderPage(path: string, routes: Parameters<typeof fakeApi>[0], dataset = makeDataset()) {
  const api = fakeApi({ [`GET /v1/datasets/${ID}`]: () => dataset, ...routes });
  vi.stubGlobal('fetch', vi.fn(api.fetch));
  const utils = renderRoutes([{ path: '/datasets/:id', element: <DatasetContentPage /> }], { path, user: makeUser() });
  return { ...utils, calls: api.calls };
}

describe('Versions tab', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('lists versions newest first with note, author, images, the models trained on each and the zip link', async () => {
    renderPage(`/datasets/${ID}?tab=versions`, {
      [`GET /v1/datasets/${ID}/versions`]: () => [v(2, { models: 1 }), v(1)],
      [`GET /v1/datasets/${ID}/versions/2`]: () => ({
        ...v(2, { models: 1 }),
        modelList: [{ id: 'M1', name: 'yolo11n night', projectId: null }],
        histogram: {},
      }),
    });
    const cards = await screen.findAllByTestId('version-card', {}, { timeout: 8000 });
    expect(cards.map((c) => c.getAttribute('data-version'))).toEqual(['2', '1']);
    expect(cards[0]).toHaveTextContent('Version 2');
    expect(cards[0]).toHaveTextContent('Latest');
    expect(cards[0]).toHaveTextContent('note 2');
    expect(cards[0]).toHaveTextContent('by ada');
    expect(cards[0]).toHaveTextContent('14 images');
    expect(await within(cards[0]!).findByRole('link', { name: 'yolo11n night' })).toHaveAttribute('href', '/models/M1');
    expect(within(cards[1]!).queryByTestId('version-models')).toBeNull();
    expect(within(cards[1]!).getByTestId('version-download')).toHaveAttribute('href', `/v1/datasets/${ID}/versions/1/download`);
  });

  it('highlights the version a model page links to', async () => {
    renderPage(`/datasets/${ID}?tab=versions&version=1`, { [`GET /v1/datasets/${ID}/versions`]: () => [v(2), v(1)] });
    const highlighted = await screen.findByTestId('version-highlight', {}, { timeout: 8000 });
    expect(highlighted.closest('[data-testid=version-card]')).toHaveAttribute('data-version', '1');
  });

  it('saves a version with its note and reads the list again', async () => {
    let versions = [v(1)];
    const { calls } = renderPage(`/datasets/${ID}?tab=versions`, {
      [`GET /v1/datasets/${ID}/versions`]: () => versions,
      [`POST /v1/datasets/${ID}/versions`]: (body) => {
        const saved = v(2, { note: (body as { note: string }).note });
        versions = [saved, ...versions];
        return saved;
      },
    });
    await userEvent.click(await screen.findByTestId('save-version', {}, { timeout: 8000 }));
    expect(await screen.findByText('Save version 2')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('version-note-input'), '  added 10 night images ');
    await userEvent.click(screen.getByTestId('save-version-submit'));
    await waitFor(() => expect(screen.getAllByTestId('version-card')).toHaveLength(2));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ note: 'added 10 night images' });
    expect(screen.getAllByTestId('version-card')[0]).toHaveTextContent('added 10 night images');
    expect(notifications.store.getState().active.map((n) => n.message)).toContain('Version 2 saved.');
  });

  it('moves a version to the trash after a confirmation', async () => {
    let versions = [v(2), v(1)];
    const { calls } = renderPage(`/datasets/${ID}?tab=versions`, {
      [`GET /v1/datasets/${ID}/versions`]: () => versions,
      [`DELETE /v1/datasets/${ID}/versions/2`]: () => {
        versions = versions.slice(1);
        return { ok: true };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions of version 2' }, { timeout: 8000 }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Move to trash' }, { timeout: 5000 }));
    expect(await screen.findByText('Move version 2 to the trash?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(screen.getAllByTestId('version-card')).toHaveLength(1));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/v1/datasets/${ID}/versions/2`)).toBe(true);
  });

  it('a viewer without edit rights sees no Save version and no delete', async () => {
    renderPage(
      `/datasets/${ID}?tab=versions`,
      { [`GET /v1/datasets/${ID}/versions`]: () => [v(1)] },
      makeDataset({ abilities: { canEdit: false, canDelete: false, canShare: false } }),
    );
    await screen.findAllByTestId('version-card', {}, { timeout: 8000 });
    expect(screen.queryByTestId('save-version')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions of version 1' }));
    expect(await screen.findByRole('menuitem', { name: 'Compare with the working state' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Move to trash' })).toBeNull();
  });

  it('the diff shows the added images, the move, labels before and after, the rename and both histograms', async () => {
    const { calls } = renderPage(`/datasets/${ID}?tab=versions&from=1&to=2`, {
      [`GET /v1/datasets/${ID}/versions`]: () => [v(2), v(1)],
      [`GET /v1/datasets/${ID}/diff`]: () => DIFF,
    });
    const diff = await screen.findByTestId('version-diff', {}, { timeout: 8000 });
    await within(diff).findByTestId('diff-summary', {}, { timeout: 8000 });
    expect(calls.find((c) => c.path.endsWith('/diff'))).toBeTruthy();
    expect(within(diff).getByTestId('diff-summary')).toHaveTextContent('10 added');
    expect(within(diff).getByTestId('diff-summary')).toHaveTextContent('1 class renamed');
    const added = within(diff).getByTestId('diff-added');
    expect(added).toHaveTextContent('10 images added');
    // 12 tiles at most before Show all: all 10 fit.
    expect(within(added).getAllByTestId('diff-tile')).toHaveLength(10);
    expect(within(diff).getByTestId('diff-moved')).toHaveTextContent('Train → Val');
    const renamed = within(diff).getByTestId('diff-renamed');
    expect(renamed).toHaveTextContent('circle');
    expect(renamed).toHaveTextContent('disc');
    const change = within(diff).getByTestId('diff-label-change');
    expect(within(change).getAllByTestId('diff-tile')).toHaveLength(2);
    expect(change).toHaveTextContent('Version 1');
    expect(change).toHaveTextContent('Version 2');
    const table = within(diff).getByTestId('diff-histogram-table');
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual(['ClassVersion 1Version 2Change', 'circle40-4', 'square23+1', 'disc015+15']);
  });

  it('opens a label change in the lightbox with the boxes of each side', async () => {
    renderPage(`/datasets/${ID}?tab=versions&from=1&to=working`, {
      [`GET /v1/datasets/${ID}/versions`]: () => [v(1)],
      [`GET /v1/datasets/${ID}/diff`]: (_b, url) => {
        expect(url).toContain('from=1&to=working');
        return DIFF;
      },
    });
    const change = await screen.findByTestId('diff-label-change', {}, { timeout: 8000 });
    const [, after] = within(change).getAllByTestId('diff-tile');
    await userEvent.click(after!);
    const lightbox = await screen.findByRole('dialog');
    expect(within(lightbox).getByText('Working state')).toBeInTheDocument();
    // After: two boxes (disc and square); stepping back shows the one box before.
    await waitFor(() => expect(within(lightbox).getAllByTestId('label-box')).toHaveLength(2));
    await userEvent.click(within(lightbox).getByRole('button', { name: 'Previous image' }));
    await waitFor(() => expect(within(lightbox).getAllByTestId('label-box')).toHaveLength(1));
    expect(within(lightbox).getByText('Version 1')).toBeInTheDocument();
  });

  it('picking the sides of the diff asks the server for that pair', async () => {
    const { calls } = renderPage(`/datasets/${ID}?tab=versions`, {
      [`GET /v1/datasets/${ID}/versions`]: () => [v(2), v(1)],
      [`GET /v1/datasets/${ID}/diff`]: () => ({ ...DIFF, added: [], moved: [], labelsChanged: [], classesRenamed: [], histogram: { from: {}, to: {} } }),
    });
    await userEvent.click(await screen.findByTestId('open-diff', {}, { timeout: 8000 }));
    expect(await screen.findByTestId('diff-nothing')).toHaveTextContent('Nothing changed');
    expect(calls.filter((c) => c.path.endsWith('/diff'))).toHaveLength(1);
  });

  it('reads the versions again when version.saved arrives on the dataset topic', async () => {
    let versions = [v(1)];
    renderPage(`/datasets/${ID}?tab=versions`, { [`GET /v1/datasets/${ID}/versions`]: () => versions });
    await screen.findAllByTestId('version-card', {}, { timeout: 8000 });
    await waitFor(() => expect(realtime.subscribedTopics).toContain(`dataset:${ID}`));
    versions = [v(2), ...versions];
    act(() => {
      (realtime as unknown as { receive: (raw: string) => void }).receive(
        JSON.stringify({ type: 'event', topic: `dataset:${ID}`, event: 'version.saved', data: { id: ID, number: 2 } }),
      );
    });
    await waitFor(() => expect(screen.getAllByTestId('version-card')).toHaveLength(2));
  });
});
