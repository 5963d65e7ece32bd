import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dataset, DatasetImage } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import type { ImageLabels } from '../editor/save-queue';
import AnnotatePage from './annotate';

// jsdom has no PointerEvent: a MouseEvent with a pointer id stands in, as in the browsers' own definition.
if (!('PointerEvent' in window)) {
  class PointerEventStandIn extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  }
  Object.defineProperty(window, 'PointerEvent', { value: PointerEventStandIn, configurable: true });
}

const routes = [{ path: '/datasets/:id/annotate', element: <AnnotatePage /> }];

const dataset = (task: string, canEdit = true) =>
  ({
    id: 'd1',
    task,
    status: 'Ready',
    meta: { name: 'Shapes', description: '', privacy: 'private' },
    stats: { classes: ['circle', 'square', 'triangle'], classCount: 3, images: 120, train: 120, val: 0, test: 0 },
    abilities: { canEdit, canDelete: canEdit, canShare: canEdit },
    dates: { deleted: null },
  }) as unknown as Dataset;

const image = (i: number): DatasetImage => ({
  id: `img${i}`,
  split: 'train',
  name: `im${i}.jpg`,
  width: 400,
  height: 300,
  className: null,
  labels: [],
  thumbUrl: null,
  url: `/raw/${i}`,
});

/** The label store of the design (H1): a save names the revision it was edited from, else 409 with the current one. */
function serve(task = 'detect', total = 120) {
  const labels = new Map<string, ImageLabels>();
  const current = (id: string) => labels.get(id) ?? { imageId: id, revision: 1, labels: [], className: null };
  const pagesAsked: number[] = [];
  const pagesByCursor: number[] = [];
  const pagesByOffset: number[] = [];
  /** Pending suggestions per image (H5's store): accepting appends them to the labels, revision + 1. */
  const suggestions = new Map<string, number[][]>();
  /** Classify: the class a model proposes for an image. */
  const classSuggestions = new Map<string, { className: string; conf: number }>();
  const reviewAsked: string[] = [];
  const api = fakeApi({
    'POST /v1/datasets/d1/suggestions/accept': (body) => {
      for (const id of (body as { imageIds: string[] }).imageIds) {
        const cur = current(id);
        labels.set(id, {
          ...cur,
          revision: cur.revision + 1,
          labels: [...cur.labels, ...(suggestions.get(id) ?? []).map((r) => r.slice(0, 5))],
          className: classSuggestions.get(id)?.className ?? cur.className,
        });
        suggestions.delete(id);
        classSuggestions.delete(id);
      }
      return { accepted: 1 };
    },
    'POST /v1/datasets/d1/suggestions/reject': (body) => {
      for (const id of (body as { imageIds: string[] }).imageIds) {
        suggestions.delete(id);
        classSuggestions.delete(id);
      }
      return { images: 1, rows: 1, counts: {} };
    },
    // The review filter (ADR 0039): every 7th image is unlabelled, in keyset pages of `limit`.
    'GET /v1/datasets/d1/review': (_b, url) => {
      reviewAsked.push(url);
      const q = new URL(url, 'http://x').searchParams;
      const all = Array.from({ length: total }, (_, i) => i).filter((i) => i % 7 === 0);
      const start = q.get('cursor') ? Number(q.get('cursor')) : 0;
      const page = all.slice(start, start + Number(q.get('limit')));
      return { results: page.map((i) => ({ ...image(i), suggestions: 0 })), nextCursor: start + page.length < all.length ? String(start + page.length) : null };
    },
    'GET /v1/datasets/d1/class-counts': () => {
      const counts: Record<string, number> = { circle: 0, square: 0, triangle: 0 };
      for (const l of labels.values()) for (const r of l.labels) counts[['circle', 'square', 'triangle'][r[0]!]!]! += 1;
      return { counts, images: total, unlabelled: total - labels.size };
    },
    'GET /v1/datasets/d1': () => dataset(task),
    'GET /v1/datasets/d1/images': (_b, url) => {
      const q = new URL(url, 'http://x').searchParams;
      // The cursor (opaque to the app) is here the position after the page that gave it out.
      const cursor = q.get('cursor');
      const offset = cursor ? Number(cursor.slice(1)) : Number(q.get('offset'));
      pagesAsked.push(offset);
      (cursor ? pagesByCursor : pagesByOffset).push(offset);
      const n = Math.max(0, Math.min(Number(q.get('limit')), total - offset));
      return { results: Array.from({ length: n }, (_, k) => image(offset + k)), total, nextCursor: offset + n < total ? `c${offset + n}` : null };
    },
  });
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const sm = url.match(/^\/v1\/datasets\/d1\/images\/([^/]+)\/suggestions$/);
    if (sm) {
      const rows = suggestions.get(decodeURIComponent(sm[1]!));
      const cls = classSuggestions.get(decodeURIComponent(sm[1]!));
      if (cls) return Response.json({ data: { suggestions: [{ id: 's2', status: 'pending', labels: [], conf: [cls.conf], className: cls.className }] } });
      return Response.json({ data: rows ? [{ id: 's1', status: 'pending', labels: rows }] : [] });
    }
    const m = url.match(/^\/v1\/datasets\/d1\/images\/([^/]+)\/labels$/);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      if ((init?.method ?? 'GET') === 'GET') return Response.json({ data: current(id) });
      const body = JSON.parse(String(init!.body)) as { revision: number; labels: number[][]; className?: string };
      api.calls.push({ method: 'PUT', path: url, body });
      const cur = current(id);
      if (body.revision !== cur.revision) return Response.json({ error: { code: 'LABELS_CONFLICT', message: 'newer labels' }, data: cur }, { status: 409 });
      const next = { imageId: id, revision: cur.revision + 1, labels: body.labels, className: body.className ?? null };
      labels.set(id, next);
      return Response.json({ data: next });
    }
    return api.fetch(input, init);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    api,
    labels,
    pagesAsked,
    pagesByCursor,
    pagesByOffset,
    suggestions,
    classSuggestions,
    reviewAsked,
    other: (id: string, rows: number[][]) => labels.set(id, { ...current(id), revision: current(id).revision + 1, labels: rows }),
  };
}

const draw = (x0: number, y0: number, x1: number, y1: number) => {
  const svg = screen.getByTestId('annotate-canvas');
  fireEvent.pointerDown(svg, { pointerId: 1, button: 0, clientX: x0, clientY: y0 });
  fireEvent.pointerMove(svg, { pointerId: 1, clientX: x1, clientY: y1 });
  fireEvent.pointerUp(svg, { pointerId: 1, clientX: x1, clientY: y1 });
};
const key = (k: string, extra: KeyboardEventInit = {}) => fireEvent.keyDown(window, { key: k, ...extra });
const boxes = () =>
  screen.queryAllByTestId('label').map((g) => [g.dataset.className, Number(g.dataset.x), Number(g.dataset.y), Number(g.dataset.w), Number(g.dataset.h)]);

describe('annotate page (ADR 0040)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    // Unmounting flushes the save queue, which keeps what it could not send: gone before the next test.
    cleanup();
    localStorage.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('draws boxes, picks classes by number key, undoes and redoes, and saves once debounced with the revision', async () => {
    const server = serve();
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    // jsdom has no layout: the view is the identity, so screen pixels are image pixels.
    draw(10, 20, 110, 70);
    key('2');
    draw(200, 100, 150, 50);
    key('3');
    // A new box is selected: the number key changes its class and becomes the class of the next box.
    expect(boxes()).toEqual([
      ['square', 10, 20, 100, 50],
      ['triangle', 150, 50, 50, 50],
    ]);
    key('z', { ctrlKey: true });
    expect(boxes()[1]![0]).toBe('square');
    key('z', { ctrlKey: true, shiftKey: true });
    expect(boxes()[1]![0]).toBe('triangle');
    expect(screen.getByTestId('save-state')).toHaveAttribute('data-state', 'pending');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveAttribute('data-state', 'saved'));
    const puts = server.api.calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toEqual({
      revision: 1,
      labels: [
        [1, 0.15, 0.15, 0.25, 50 / 300],
        [2, 0.4375, 0.25, 0.125, 50 / 300],
      ],
    });
    expect(server.labels.get('img0')!.revision).toBe(2);
  });

  it('selects a box, moves it with the arrow keys and deletes it; N goes to the next image', async () => {
    serve();
    const { router } = renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    draw(10, 10, 60, 60);
    key('ArrowRight', { shiftKey: true });
    key('ArrowDown');
    expect(boxes()).toEqual([['circle', 20, 11, 50, 50]]);
    key('Delete');
    expect(boxes()).toEqual([]);
    key('Escape');
    key('n');
    await waitFor(() => expect(router.state.location.search).toContain('image=img1'));
    expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 2 of 120');
  });

  it('a save over a newer revision shows both versions; keep mine re-saves on top, nothing is lost', async () => {
    const server = serve();
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    server.other('img0', [[1, 0.5, 0.5, 0.2, 0.2]]);
    draw(10, 20, 110, 70);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const dialog = await screen.findByTestId('labels-conflict');
    expect(dialog).toHaveTextContent('revision 2');
    expect(screen.getByTestId('conflict-theirs')).toHaveTextContent('square');
    expect(screen.getByTestId('conflict-mine')).toHaveTextContent('circle');
    expect(server.labels.get('img0')!.labels).toEqual([[1, 0.5, 0.5, 0.2, 0.2]]);
    fireEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(server.labels.get('img0')).toMatchObject({ revision: 3, labels: [[0, 0.15, 0.15, 0.25, 50 / 300]] }));
    await waitFor(() => expect(screen.queryByTestId('labels-conflict')).toBeNull());
  });

  it('take theirs shows the saved version in the editor', async () => {
    const server = serve();
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    server.other('img0', [[1, 0.5, 0.5, 0.2, 0.2]]);
    draw(10, 20, 110, 70);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    fireEvent.click(await screen.findByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(boxes()).toEqual([['square', 160, 120, 80, 60]]));
    expect(server.labels.get('img0')!.revision).toBe(2);
  });

  it('keeps edits made offline on the device and sends them when the page opens again', async () => {
    const server = serve();
    const realFetch = globalThis.fetch;
    const first = renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => (init?.method === 'PUT' ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(input, init))),
    );
    draw(10, 20, 110, 70);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveAttribute('data-state', 'offline'));
    expect(localStorage.getItem('sightline.annotate.d1')).toContain('img0');
    first.unmount();
    vi.stubGlobal('fetch', realFetch);
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await waitFor(() => expect(server.labels.get('img0')).toMatchObject({ revision: 2, labels: [[0, 0.15, 0.15, 0.25, 50 / 300]] }));
    await waitFor(() => expect(localStorage.getItem('sightline.annotate.d1')).toBeNull());
  });

  it('draws a polygon on a segment dataset (click the first point to close)', async () => {
    const server = serve('segment');
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    const svg = screen.getByTestId('annotate-canvas');
    for (const [x, y] of [
      [40, 30],
      [200, 30],
      [120, 150],
      [41, 31],
    ]) {
      fireEvent.pointerDown(svg, { pointerId: 1, button: 0, clientX: x, clientY: y });
      fireEvent.pointerUp(svg, { pointerId: 1, clientX: x, clientY: y });
    }
    expect(screen.getByTestId('label').dataset.points).toBe('40,30 200,30 120,150');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(server.labels.get('img0')!.labels).toEqual([[0, 0.1, 0.1, 0.5, 0.1, 0.3, 0.5]]));
  });

  it('only asks for the pages of the images in view', async () => {
    const server = serve('detect', 100_000);
    renderRoutes(routes, { path: '/datasets/d1/annotate?i=50000', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 50001 of 100000');
    expect(new Set(server.pagesAsked).size).toBeLessThanOrEqual(3);
    expect(server.pagesAsked).toContain(50_000);
    // A jump to a page whose previous page is not loaded asks for it by position.
    expect(server.pagesByOffset).toContain(50_000);
  });

  it('the page after a loaded one is asked for by its cursor (keyset, ADR 0042), not by position', async () => {
    const server = serve('detect', 1000);
    const { router } = renderRoutes(routes, { path: '/datasets/d1/annotate?i=49', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 50 of 1000');
    key('n');
    await waitFor(() => expect(router.state.location.search).toContain('image=img50'));
    expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 51 of 1000');
    expect(server.pagesByCursor).toContain(50);
    expect(server.pagesByOffset).not.toContain(50);
  });

  it('shows suggestions dashed and apart from the labels; A accepts them into the labels', async () => {
    const server = serve();
    server.suggestions.set('img0', [[2, 0.5, 0.5, 0.5, 0.5, 0.91]]);
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('suggestions-bar');
    expect(screen.getAllByTestId('suggestion')).toHaveLength(1);
    expect(screen.queryAllByTestId('label')).toHaveLength(0);
    key('a');
    await waitFor(() => expect(boxes()).toEqual([['triangle', 100, 75, 200, 150]]));
    expect(server.labels.get('img0')).toMatchObject({ revision: 2, labels: [[2, 0.5, 0.5, 0.5, 0.5]] });
    await waitFor(() => expect(screen.queryByTestId('suggestions-bar')).toBeNull());
  });

  it('the review filter lists only the images it selects, a page at a time, and the class counts follow a save', async () => {
    const server = serve('detect', 1000);
    const { router } = renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    await screen.findByTestId('annotate-canvas');
    await waitFor(() => expect(screen.getByTestId('review-summary')).toHaveTextContent('Dataset: 1000 images, 1000 unlabelled'));
    const counts = () => Object.fromEntries(screen.queryAllByTestId('class-count').map((e) => [e.dataset.class, Number(e.textContent)]));
    expect(counts()).toEqual({ circle: 0, square: 0, triangle: 0 });
    fireEvent.click(screen.getByRole('combobox', { name: 'Show images' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Unlabelled', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toContain('filter=unlabelled'));
    // 143 of 1000 images (every 7th): the first page of 50, the position says more follow.
    await waitFor(() => expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 1 of 50+'));
    expect(server.pagesAsked).toEqual([0]);
    await waitFor(() => expect(router.state.location.search).toContain('image=img0'));
    key('n');
    await waitFor(() => expect(router.state.location.search).toContain('image=img7'));
    expect(server.reviewAsked[0]).toContain('filter=unlabelled');
    expect(server.reviewAsked[0]).toContain('limit=50');
    // A box drawn and saved: the counts beside the classes read the server again.
    await screen.findByTestId('annotate-canvas');
    draw(10, 20, 110, 70);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(counts()).toEqual({ circle: 1, square: 0, triangle: 0 }));
    // The list's row of the current image says what the editor holds, not what the filter's page said.
    expect(screen.getAllByTestId('annotate-image-row').find((r) => r.dataset.current)).toHaveTextContent('1 object');
    // All images again: the dataset's pages, not the filter's.
    fireEvent.click(screen.getByRole('combobox', { name: 'Show images' }));
    fireEvent.click(await screen.findByRole('option', { name: 'All images', hidden: true }));
    await waitFor(() => expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 1 of 1000'));
    expect(router.state.location.search).not.toContain('filter=');
  });

  it('opened from an evaluation’s mistakes, lists the images where the model and the labels disagree', async () => {
    const server = serve('detect', 100);
    renderRoutes(routes, { path: '/datasets/d1/annotate?filter=disagree&evaluation=ev1', user: makeUser() });
    await waitFor(() => expect(screen.getByTestId('annotate-position')).toHaveTextContent('Image 1 of 15'));
    expect(server.reviewAsked).toHaveLength(1);
    expect(new URL(server.reviewAsked[0]!, 'http://x').searchParams.get('evaluationId')).toBe('ev1');
    expect(new URL(server.reviewAsked[0]!, 'http://x').searchParams.get('filter')).toBe('disagree');
    expect(server.pagesAsked).toEqual([]);
    expect(screen.getByRole('combobox', { name: 'Show images' })).toHaveValue('Model and labels disagree');
  });

  it('shows the class a model suggests for a classify image; A accepts it as the image class, R rejects it', async () => {
    const server = serve('classify');
    server.classSuggestions.set('img0', { className: 'triangle', conf: 0.87 });
    server.classSuggestions.set('img1', { className: 'square', conf: 0.6 });
    const { router } = renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    expect(await screen.findByTestId('suggested-class')).toHaveTextContent('Suggested class: triangle (0.87)');
    expect(within(screen.getByTestId('annotate-classes')).getByRole('button', { name: /triangle/ })).toHaveAttribute('data-suggested', 'true');
    key('a');
    await waitFor(() => expect(server.labels.get('img0')).toMatchObject({ revision: 2, className: 'triangle' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('annotate-classes')).getByRole('button', { name: /triangle/ })).toHaveAttribute('aria-pressed', 'true'),
    );
    await waitFor(() => expect(screen.queryByTestId('suggestions-bar')).toBeNull());
    key('n');
    await waitFor(() => expect(router.state.location.search).toContain('image=img1'));
    expect(await screen.findByTestId('suggested-class')).toHaveTextContent('square');
    fireEvent.click(screen.getByRole('button', { name: 'Reject (R)' }));
    await waitFor(() => expect(screen.queryByTestId('suggestions-bar')).toBeNull());
    expect(server.labels.get('img1')).toBeUndefined();
  });

  it('tells a viewer without edit rights that they cannot label', async () => {
    const api = fakeApi({ 'GET /v1/datasets/d1': () => dataset('detect', false) });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes(routes, { path: '/datasets/d1/annotate', user: makeUser() });
    expect(await screen.findByText('You can view this dataset but not edit its labels.')).toBeInTheDocument();
  });
});
