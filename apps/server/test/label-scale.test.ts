import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { datasets } from '../src/platform/db/schema.js';
import { statsOf } from '../src/modules/datasets/datasets.edit-stats.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * The annotation editor at scale (ADR 0040, issue "Label in the browser": "a dataset of 100,000 images, the image list is
 * virtual, nothing loads all labels") and the review filter "changed since version N" (ADR 0039 over ADR 0038's revisions).
 *
 * 100,000 working rows are seeded straight into dataset_images (one INSERT ... SELECT generate_series, no repository),
 * then the editor's data path is driven over HTTP the way apps/web/src/features/annotate does it: pages of
 * GET /v1/datasets/:id/images for the rows in view (IMAGE_PAGE_SIZE 50, pages from virtual-range.ts), and per current
 * image GET .../images/:imageId/labels and .../suggestions.
 */
let t: TestApp;
type User = Awaited<ReturnType<typeof buildUser>>;
let owner: User;
let big: string;

const N = 100_000;
/** The editor's constants (apps/web/src/features/annotate: api/get-image-page.ts, components/image-list.tsx). */
const IMAGE_PAGE_SIZE = 50;
const ROW_HEIGHT = 56;
const VIEWPORT = 720;

/** Same arithmetic as apps/web/src/features/annotate/editor/virtual-range.ts (overscan 4). */
function visibleRange(scrollTop: number, viewport: number, count: number, overscan = 4) {
  if (count <= 0) return { start: 0, end: 0 };
  return {
    start: Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - overscan),
    end: Math.min(count, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + overscan),
  };
}
function pagesFor(range: { start: number; end: number }) {
  const pages: number[] = [];
  for (let p = Math.floor(range.start / IMAGE_PAGE_SIZE); range.end > range.start && p <= Math.floor((range.end - 1) / IMAGE_PAGE_SIZE); p++) pages.push(p);
  return pages;
}

const get = (url: string, u: User = owner) => t.app.inject({ method: 'GET', url, headers: { cookie: u.cookie } });
const send = (method: 'POST' | 'PUT', url: string, payload: unknown, u: User = owner) =>
  t.app.inject({ method, url, headers: { cookie: u.cookie }, payload: payload as never });

/** A detect dataset made over HTTP, then marked processed with `n` working images seeded in one statement (test-only, no repository). */
async function seededDataset(u: User, name: string, n: number) {
  const res = await send('POST', '/v1/datasets', { meta: { name }, task: 'detect' }, u);
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as string;
  const db = t.database.db;
  await db.execute(sql`
    INSERT INTO dataset_images (id, dataset_id, split, name, entry_name, width, height, format, labels, source, image_id, rev_from, label_rev)
    SELECT ${id} || '-' || g, ${id}, CASE WHEN g % 10 < 8 THEN 'train' WHEN g % 10 = 8 THEN 'val' ELSE 'test' END,
           'img' || lpad(g::text, 6, '0') || '.jpg', 'images/img' || lpad(g::text, 6, '0') || '.jpg', 640, 480, 'jpeg',
           jsonb_build_array(jsonb_build_array(g % 3, 0.5, 0.5, 0.2, 0.1)),
           '{"dataOffset":0,"compressedSize":1,"uncompressedSize":1,"compressionMethod":0,"format":"jpeg"}'::jsonb,
           ${id} || '-' || g, 1, 1
    FROM generate_series(1, ${n}) AS g`);
  // What processing stores with the rows (the image list's total comes from it, ADR 0042): the same split rule as above.
  const images = Array.from({ length: n }, (_, k) => ({ g: k + 1 })).map(({ g }) => ({
    split: g % 10 < 8 ? 'train' : g % 10 === 8 ? 'val' : 'test',
    labels: [[g % 3, 0.5, 0.5, 0.2, 0.1]],
  }));
  await db
    .update(datasets)
    .set({
      status: 'Ready',
      processedAt: new Date(),
      seq: 1,
      classes: ['a', 'b', 'c'],
      stats: statsOf(['a', 'b', 'c'], images),
      storageKey: `seeded/${id}.zip`,
    })
    .where(eq(datasets.id, id));
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await buildUser(t.app);
  big = await seededDataset(owner, 'hundred-k', N);
}, 600_000);
afterAll(async () => {
  await t.close();
});

describe('the editor on a 100,000-image dataset', () => {
  it('opening it and stepping through 200 images loads a bounded number of label pages, never all labels', async () => {
    const counts = { imagePages: 0, pageRows: 0, labelRequests: 0, labelRows: 0, suggestionRequests: 0, requests: 0, cursorPages: 0, offsetPages: 0 };
    expect((await get(`/v1/datasets/${big}`)).json().data.abilities.canEdit).toBe(true);
    counts.requests += 1;

    // The editor's query cache: a page once loaded stays (staleTime 60 s, far longer than this walk).
    const cache = new Map<number, { results: Array<{ id: string; name: string; labels: number[][] }>; total: number; nextCursor: string | null }>();
    const page = async (p: number) => {
      const hit = cache.get(p);
      if (hit) return hit;
      // As get-image-page.ts does: the page after a loaded one by its cursor, a jump by offset.
      const before = cache.get(p - 1);
      const at = p === 0 ? '' : before?.nextCursor ? `&cursor=${before.nextCursor}` : `&offset=${p * IMAGE_PAGE_SIZE}`;
      if (p > 0) counts[before?.nextCursor ? 'cursorPages' : 'offsetPages'] += 1;
      const res = await get(`/v1/datasets/${big}/images?limit=${IMAGE_PAGE_SIZE}${at}`);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      counts.imagePages += 1;
      counts.requests += 1;
      counts.pageRows += data.results.length;
      cache.set(p, data);
      return data;
    };

    let scrollTop = 0;
    let total = 0;
    const seen: string[] = [];
    for (let index = 0; index < 200; index++) {
      // The list keeps the current row in view (image-list.tsx), the page of the current image is always asked for.
      const top = index * ROW_HEIGHT;
      if (top < scrollTop || top + ROW_HEIGHT > scrollTop + VIEWPORT) scrollTop = Math.max(0, top - VIEWPORT / 2);
      const pages = [...new Set([Math.floor(index / IMAGE_PAGE_SIZE), ...pagesFor(visibleRange(scrollTop, VIEWPORT, total || N))])];
      for (const p of pages) total = Math.max(total, (await page(p)).total);
      const image = cache.get(Math.floor(index / IMAGE_PAGE_SIZE))!.results[index % IMAGE_PAGE_SIZE]!;
      seen.push(image.name);

      const labels = await get(`/v1/datasets/${big}/images/${image.id}/labels`);
      expect(labels.statusCode, labels.body).toBe(200);
      counts.labelRequests += 1;
      counts.requests += 1;
      counts.labelRows += labels.json().data.labels.length;
      expect(labels.json().data.labels).toEqual(image.labels);
      const suggestions = await get(`/v1/datasets/${big}/images/${image.id}/suggestions`);
      expect(suggestions.statusCode).toBe(200);
      counts.suggestionRequests += 1;
      counts.requests += 1;
    }

    console.log(
      `[label-scale] ${N} images, 200 stepped through: ${counts.imagePages} image/label pages of ${IMAGE_PAGE_SIZE} (${counts.pageRows} rows), ` +
        `${counts.labelRequests} per-image label reads (${counts.labelRows} label rows), ${counts.suggestionRequests} suggestion reads, ${counts.requests} requests in all`,
    );
    expect(total).toBe(N);
    // Browse order (split, name): the test split comes first (every tenth image, from 9).
    expect(seen.slice(0, 3)).toEqual(['img000009.jpg', 'img000019.jpg', 'img000029.jpg']);
    expect(new Set(seen).size).toBe(200);
    expect(counts.imagePages).toBeLessThanOrEqual(200 / IMAGE_PAGE_SIZE + 2);
    expect(counts.pageRows).toBeLessThanOrEqual((200 / IMAGE_PAGE_SIZE + 2) * IMAGE_PAGE_SIZE);
    expect(counts.pageRows + counts.labelRequests).toBeLessThan(N / 100);
    expect(counts.labelRequests).toBe(200);
    // Stepping on from the first page reads every later page by its cursor (ADR 0042), none by offset.
    expect(counts.offsetPages).toBe(0);
    expect(counts.cursorPages).toBeGreaterThan(0);
  }, 300_000);

  it('jumping to the last image (?i=99999) loads only that page', async () => {
    const last = Math.floor((N - 1) / IMAGE_PAGE_SIZE);
    const res = await get(`/v1/datasets/${big}/images?offset=${last * IMAGE_PAGE_SIZE}&limit=${IMAGE_PAGE_SIZE}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.results).toHaveLength(IMAGE_PAGE_SIZE);
    // The total is the dataset's statistics on every page, a jump's included (nothing counts the images).
    expect(data.total).toBe(N);
    // The last page hands out no cursor: the server reads one row past the page to know.
    expect(data.nextCursor).toBeNull();
    // The last image in browse order is the val split's last name.
    expect(data.results.at(-1).split).toBe('val');
  }, 60_000);

  it('keyset pages (the cursor) walk the same order as offsets', async () => {
    const first = (await get(`/v1/datasets/${big}/images?limit=${IMAGE_PAGE_SIZE}`)).json().data;
    const second = (await get(`/v1/datasets/${big}/images?limit=${IMAGE_PAGE_SIZE}&cursor=${first.nextCursor}`)).json().data;
    const byOffset = (await get(`/v1/datasets/${big}/images?offset=${IMAGE_PAGE_SIZE}&limit=${IMAGE_PAGE_SIZE}`)).json().data;
    expect(second.results.map((i: { id: string }) => i.id)).toEqual(byOffset.results.map((i: { id: string }) => i.id));
  }, 60_000);
});

describe('review filter "changed since version N" (ADR 0039, ADR 0038)', () => {
  it('lists the images whose working revision came after version N, keyset-paged; bad input is a clear 4xx', async () => {
    const d = await seededDataset(owner, 'changed-since', 30);
    const v1 = await send('POST', `/v1/datasets/${d}/versions`, { note: 'v1' });
    expect(v1.statusCode, v1.body).toBe(201);
    const n1 = v1.json().data.number as number;
    const review = async (q: string) => get(`/v1/datasets/${d}/review?filter=changed-since&${q}`);

    expect((await review(`since=${n1}`)).json().data).toEqual({ results: [], nextCursor: null });

    // Two relabelled images and one moved to another split: three images changed since v1.
    for (const k of [3, 17]) {
      const put = await send('PUT', `/v1/datasets/${d}/images/${d}-${k}/labels`, { revision: 1, labels: [[1, 0.4, 0.4, 0.1, 0.1]] });
      expect(put.statusCode, put.body).toBe(200);
    }
    const move = await send('POST', `/v1/datasets/${d}/images/move`, { imageIds: [`${d}-25`], split: 'val' });
    expect(move.statusCode, move.body).toBe(200);

    const changed = (await review(`since=${n1}`)).json().data;
    expect(changed.results.map((i: { id: string }) => i.id).sort()).toEqual([`${d}-17`, `${d}-25`, `${d}-3`].sort());
    expect(changed.results.find((i: { id: string }) => i.id === `${d}-3`).labels).toEqual([[1, 0.4, 0.4, 0.1, 0.1]]);

    // Keyset-paged, and a split narrows it.
    const p1 = (await review(`since=${n1}&limit=2`)).json().data;
    const p2 = (await review(`since=${n1}&limit=2&cursor=${p1.nextCursor}`)).json().data;
    expect([...p1.results, ...p2.results].map((i: { id: string }) => i.id)).toEqual(changed.results.map((i: { id: string }) => i.id));
    expect(p2.nextCursor).toBeNull();
    expect((await review(`since=${n1}&split=val`)).json().data.results.map((i: { id: string }) => i.id)).toEqual([`${d}-25`]);

    // A second version: nothing changed since it; an edit after it shows only that image, while v1 still sees all four.
    const v2 = (await send('POST', `/v1/datasets/${d}/versions`, { note: 'v2' })).json().data.number as number;
    expect((await review(`since=${v2}`)).json().data.results).toEqual([]);
    const again = await send('PUT', `/v1/datasets/${d}/images/${d}-5/labels`, { revision: 1, labels: [] });
    expect(again.statusCode, again.body).toBe(200);
    expect((await review(`since=${v2}`)).json().data.results.map((i: { id: string }) => i.id)).toEqual([`${d}-5`]);
    expect((await review(`since=${n1}`)).json().data.results).toHaveLength(4);

    const missing = await review('');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details.field).toBe('since');
    const unknown = await review('since=99');
    expect(unknown.statusCode).toBe(404);
    expect((await review('since=zero')).statusCode).toBe(400);
    // Another user cannot read a private dataset's review list.
    const stranger = await buildUser(t.app);
    expect((await get(`/v1/datasets/${d}/review?filter=changed-since&since=${n1}`, stranger)).statusCode).toBe(404);
  }, 120_000);
});
