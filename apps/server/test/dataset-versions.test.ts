import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { DatasetDiff, DatasetVersion, DatasetVersionDetail } from '@sightline/contracts';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { shapes3Dataset, userWithKey } from './support/wire.js';
import { copyImages, deleteImages, renameClass } from '../src/modules/datasets/datasets.edits.js';

/**
 * Dataset versions (ADR 0038) through the API on a small real dataset (shapes3, processed by the
 * real job): version 1 at Ready, 10 images added (copies: the edit API's add route is not merged yet)
 * and a class renamed, version 2 saved; both zips download and version 1's bytes do not change; the
 * diff names exactly the 10 added images and the rename; no image bytes were copied; `ul://…/slug:vN`
 * and the latest.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(async () => {
  await t?.close();
});

function zipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        out.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    }),
  );
}

async function blobBytes() {
  const res = await t.database.db.execute(sql`SELECT coalesce(sum(bytes), 0)::bigint AS n FROM dataset_blobs`);
  return Number((res as unknown as { rows: Array<{ n: string | number }> }).rows[0]!.n);
}

describe('dataset versions (ADR 0038)', () => {
  it('v1 at Ready; 10 images copied in + a class renamed, save v2: both zips, v1 unchanged, the diff, blob bytes, ul:// versions', async () => {
    const u = await userWithKey(t, 'versioner');
    const ds = await shapes3Dataset(t, u.user.id, 'shapes-v');
    const as = { cookie: u.cookie };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: as });

    // Version 1 was saved when processing reached Ready.
    let res = await get(`/v1/datasets/${ds.id}/versions`);
    expect(res.statusCode, res.body).toBe(200);
    const v1 = (res.json().data as DatasetVersion[])[0]!;
    expect(v1).toMatchObject({ number: 1, classes: ['red_square', 'green_circle', 'blue_triangle'] });
    expect(v1.images).toBeGreaterThan(100);

    res = await get(`/v1/datasets/${ds.id}/versions/1/download`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip1 = res.rawPayload;
    expect(Number(res.headers['content-length'])).toBe(zip1.length);
    const names1 = await zipNames(zip1);
    expect(names1).toContain('shapes-v-v1/data.yaml');
    expect(names1.filter((n) => n.startsWith('shapes-v-v1/images/'))).toHaveLength(v1.images);

    const blobsBefore = await blobBytes();
    // 10 images more: copies of 10 train images into val (new images, the same bytes; ADR 0037), and a class renamed.
    res = await get(`/v1/datasets/${ds.id}/images?split=train&limit=10`);
    expect(res.statusCode, res.body).toBe(200);
    const picked = res.json().data.results as Array<{ id: string; labels: number[][] }>;
    const sources = picked.map((i) => i.id);
    const objects = picked.reduce((n, i) => n + i.labels.length, 0);
    expect(sources).toHaveLength(10);
    await copyImages(t.app.ctx, u.user.id, ds.id, { imageIds: sources, split: 'val' });
    await renameClass(t.app.ctx, u.user.id, ds.id, { from: 1, to: 'green_disc' });

    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: { note: 'ten more' } });
    expect(res.statusCode, res.body).toBe(201);
    const v2 = res.json().data as DatasetVersion;
    expect(v2).toMatchObject({ number: 2, note: 'ten more', images: v1.images + 10, classes: ['red_square', 'green_disc', 'blue_triangle'] });
    expect(v2.createdBy?.username).toBe('versioner');

    // Copies and versions cost no image bytes: nothing of the archive was copied, saving copied nothing.
    expect((await blobBytes()) - blobsBefore).toBe(0);

    // Version 1's zip is the same bytes as before; version 2's holds the 10 images and the renamed class.
    res = await get(`/v1/datasets/${ds.id}/versions/1/download`);
    expect(res.rawPayload.equals(zip1)).toBe(true);
    res = await get(`/v1/datasets/${ds.id}/versions/2/download`);
    expect(res.statusCode).toBe(200);
    const names2 = await zipNames(res.rawPayload);
    expect(names2.filter((n) => n.startsWith('shapes-v-v2/images/'))).toHaveLength(v1.images + 10);

    // The diff: exactly the 10 added and the rename; labels of other images unchanged.
    res = await get(`/v1/datasets/${ds.id}/diff?from=1&to=2`);
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json().data as DatasetDiff;
    expect(diff.added).toHaveLength(10);
    expect(diff.added.every((i) => i.split === 'val' && !sources.includes(i.id))).toBe(true);
    for (const i of diff.added) expect(names2).toContain(`shapes-v-v2/images/val/${i.name}`);
    expect(diff.removed).toEqual([]);
    expect(diff.moved).toEqual([]);
    expect(diff.labelsChanged).toEqual([]);
    expect(diff.classesRenamed).toEqual([{ index: 1, from: 'green_circle', to: 'green_disc' }]);
    expect(diff.classesAdded).toEqual([]);
    expect(diff.classesRemoved).toEqual([]);
    expect(Object.keys(diff.histogram.from)).toEqual(['red_square', 'green_circle', 'blue_triangle']);
    expect(Object.keys(diff.histogram.to)).toEqual(['red_square', 'green_disc', 'blue_triangle']);
    const total = (h: Record<string, number>) => Object.values(h).reduce((a, b) => a + b, 0);
    // The histogram counts objects: the copies brought theirs.
    expect(total(diff.histogram.to) - total(diff.histogram.from)).toBe(objects);
    // Against the working state (nothing changed since v2): empty.
    res = await get(`/v1/datasets/${ds.id}/diff?from=2&to=working`);
    expect(res.json().data).toMatchObject({ added: [], removed: [], moved: [], labelsChanged: [], classesRenamed: [] });

    // ul:// resolution: `slug:v1` → version 1's NDJSON, `slug` → the latest (v2).
    const key = { 'x-api-key': u.key };
    const ndjsonOf = async (segment: string) => {
      const r = await t.app.inject({ method: 'GET', url: `/api/datasets/versioner/${encodeURIComponent(segment)}/export`, headers: key });
      expect(r.statusCode, r.body).toBe(200);
      const url = new URL((r.json() as { downloadUrl: string }).downloadUrl);
      const file = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(file.statusCode, file.body).toBe(200);
      const lines = file.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      return { path: url.pathname, header: lines[0]!, images: lines.length - 1 };
    };
    const old = await ndjsonOf('shapes-v:v1');
    expect(old.path).toMatch(/\/shapes-v\.v1\.ndjson$/);
    expect(old.images).toBe(v1.images);
    expect(old.header).toMatchObject({ version: 1, class_names: { 0: 'red_square', 1: 'green_circle', 2: 'blue_triangle' } });
    const latest = await ndjsonOf('shapes-v');
    expect(latest.path).toMatch(/\/shapes-v\.v2\.ndjson$/);
    expect(latest.images).toBe(v1.images + 10);
    expect(latest.header).toMatchObject({ version: 2, class_names: { 1: 'green_disc' } });
    res = await t.app.inject({ method: 'GET', url: `/api/datasets/versioner/shapes-v:v9/export`, headers: key });
    expect(res.statusCode).toBe(404);

    // What a diff tile draws: size, the labels of its side and the signed preview and original links of the image browser.
    const pickedById = new Map(picked.map((p) => [p.id, p]));
    const firstAdded = diff.added[0]!;
    expect(firstAdded).toMatchObject({ width: expect.any(Number), height: expect.any(Number), labels: expect.any(Array) });
    const fetched = async (link: string | null | undefined) => (await t.app.inject({ method: 'GET', url: link! })).statusCode;
    expect(await fetched(firstAdded.thumbUrl)).toBe(200);
    expect(await fetched(firstAdded.url)).toBe(200);
    // An image that left the working state still shows in the diff (the links resolve its newest revision).
    const gone = sources[0]!;
    await deleteImages(t.app.ctx, u.user.id, ds.id, { imageIds: [gone] });
    res = await get(`/v1/datasets/${ds.id}/diff?from=2&to=working`);
    const removed = (res.json().data as DatasetDiff).removed;
    expect(removed.map((i) => i.id)).toEqual([gone]);
    expect(removed[0]!.labels).toEqual(pickedById.get(gone)!.labels);
    expect(await fetched(removed[0]!.thumbUrl)).toBe(200);
    expect(await fetched(removed[0]!.url)).toBe(200);
  }, 300_000);

  it('delete to the trash and restore; readers cannot save or delete; detail lists models trained on it', async () => {
    const owner = await userWithKey(t, 'vowner');
    const other = await buildUser(t.app);
    const ds = await shapes3Dataset(t, owner.user.id, 'shapes-t');
    const as = { cookie: owner.cookie };
    let res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: { cookie: other.cookie }, payload: {} });
    expect(res.statusCode).toBe(404);
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: { note: 'second' } });
    expect(res.statusCode).toBe(201);

    // A Platform run naming `ul://vowner/datasets/shapes-t:v1` records version 1 on its model.
    res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/training/metrics',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      payload: {
        event: 'training_started',
        project: 'vowner/lineage',
        name: 'run1',
        data: { trainArgs: { data: 'ul://vowner/datasets/shapes-t:v1', model: 'yolo11n.pt', epochs: 1 } },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const modelId = (res.json() as { modelId: string }).modelId;
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions/1`, headers: as });
    const detail = res.json().data as DatasetVersionDetail;
    expect(detail.modelList.map((m) => m.id)).toEqual([modelId]);
    expect(detail.models).toBe(1);
    // The model links to the version it trained on.
    res = await t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: as });
    expect(res.json().data.dataset).toMatchObject({ id: ds.id, version: 1 });

    res = await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${ds.id}/versions/2`, headers: { cookie: other.cookie } });
    expect(res.statusCode).toBe(404);
    res = await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${ds.id}/versions/2`, headers: as });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions`, headers: as });
    expect((res.json().data as DatasetVersion[]).map((v) => v.number)).toEqual([1]);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions/2/download`, headers: as });
    expect(res.statusCode).toBe(404);

    res = await t.app.inject({ method: 'GET', url: '/v1/trash', headers: as });
    const item = (res.json().data as Array<{ id: string; type: string; name: string }>).find((i) => i.type === 'datasetVersion');
    expect(item?.name).toBe('shapes-t v2');
    res = await t.app.inject({ method: 'POST', url: `/v1/trash/datasetVersion/${item!.id}/restore`, headers: as });
    expect(res.statusCode, res.body).toBeLessThan(300);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions`, headers: as });
    expect((res.json().data as DatasetVersion[]).map((v) => v.number)).toEqual([2, 1]);
    // A new version never reuses a number.
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: {} });
    expect(res.json().data.number).toBe(3);
  }, 300_000);
});
