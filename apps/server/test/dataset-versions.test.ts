import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetDiff, DatasetVersion, DatasetVersionDetail } from '@sightline/contracts';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildTeam, buildUser } from './support/factories.js';
import { users } from '../src/platform/db/schema.js';
import { shapes3Dataset, userWithKey } from './support/wire.js';
import { buildZip, makeImage } from '../src/modules/datasets/processing/test-archives.js';
import { deleteImages } from '../src/modules/datasets/datasets.edits.js';
import { Readable } from 'node:stream';
import { finishUpload, purgeDataset } from '../src/modules/datasets/datasets.service.js';
import { yoloEntries } from '../src/modules/datasets/processing/test-archives.js';
import { datasetsRepository } from '../src/modules/datasets/datasets.repository.js';
import { zipEntries, zipNames } from './support/zip.js';

/**
 * Dataset versions (ADR 0038) through the API on a small real dataset (shapes3, processed by the
 * real job): version 1 at Ready, 10 new images added through `POST /v1/datasets/:id/images` (ADR 0037)
 * and a class renamed, version 2 saved; both zips download and version 1's bytes do not change; the
 * diff names exactly the 10 added images and the rename; image blob bytes grew by the 10 images' bytes
 * only (saving a version copies nothing); `ul://…/slug:vN` and the latest.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(async () => {
  await t?.close();
});

async function blobBytes() {
  const res = await t.database.db.execute(sql`SELECT coalesce(sum(bytes), 0)::bigint AS n FROM dataset_blobs`);
  return Number((res as unknown as { rows: Array<{ n: string | number }> }).rows[0]!.n);
}

describe('dataset versions (ADR 0038)', () => {
  it('v1 at Ready; 10 new images added through the add route + a class renamed, save v2: both zips, v1 unchanged, the diff, blob bytes, ul:// versions', async () => {
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
    // 10 new images (bytes nowhere else in the dataset) with labels, added to val through the real multipart route; a class renamed.
    const added = await Promise.all(Array.from({ length: 10 }, (_, i) => makeImage('png', 48, 40, 200 + i * 5)));
    const addedBytes = added.reduce((n, b) => n + b.length, 0);
    const entries = added.flatMap((data, i) => [
      { name: `new${i}.png`, data },
      { name: `new${i}.txt`, data: `${i % 3} 0.5 0.5 0.25 0.25\n` },
    ]);
    const objects = 10;
    const mp = multipart({ split: 'val' }, { field: 'files', filename: 'ten.zip', content: buildZip(entries), contentType: 'application/zip' });
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/images`, headers: { ...as, ...mp.headers }, payload: mp.payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ added: 10, report: { leftOutCount: 0 } });
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/classes/rename`, headers: as, payload: { from: 1, to: 'green_disc' } });
    expect(res.statusCode, res.body).toBe(200);
    // Adding stored exactly the 10 images' bytes, once each (content-addressed blobs, ADR 0037).
    expect((await blobBytes()) - blobsBefore).toBe(addedBytes);

    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: { note: 'ten more' } });
    expect(res.statusCode, res.body).toBe(201);
    const v2 = res.json().data as DatasetVersion;
    expect(v2).toMatchObject({ number: 2, note: 'ten more', images: v1.images + 10, classes: ['red_square', 'green_disc', 'blue_triangle'] });
    expect(v2.createdBy?.username).toBe('versioner');

    // Saving the version copied no image bytes: blob bytes grew by the 10 images only.
    expect((await blobBytes()) - blobsBefore).toBe(addedBytes);

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
    expect(diff.added.map((i) => i.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `new${i}.png`).sort());
    expect(diff.added.every((i) => i.split === 'val')).toBe(true);
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
    // The histogram counts objects: the 10 added images brought one each.
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
    const firstAdded = diff.added[0]!;
    expect(firstAdded).toMatchObject({ width: expect.any(Number), height: expect.any(Number), labels: expect.any(Array) });
    const fetched = async (link: string | null | undefined) => (await t.app.inject({ method: 'GET', url: link! })).statusCode;
    expect(await fetched(firstAdded.thumbUrl)).toBe(200);
    expect(await fetched(firstAdded.url)).toBe(200);
    // An image that left the working state still shows in the diff (the links resolve its newest revision).
    const gone = firstAdded.id;
    await deleteImages(t.app.ctx, u.user.id, ds.id, { imageIds: [gone] });
    res = await get(`/v1/datasets/${ds.id}/diff?from=2&to=working`);
    const removed = (res.json().data as DatasetDiff).removed;
    expect(removed.map((i) => i.id)).toEqual([gone]);
    expect(removed[0]!.labels).toEqual(firstAdded.labels);
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
    // The project's models carry it too: the project compare charts group by it.
    res = await t.app.inject({ method: 'GET', url: `/v1/projects/${res.json().data.project.id}/models`, headers: as });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data as Array<{ id: string; dataset: { version: number | null } }>).map((m) => [m.id, m.dataset.version])).toEqual([[modelId, 1]]);

    res = await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${ds.id}/versions/2`, headers: { cookie: other.cookie } });
    expect(res.statusCode).toBe(404);
    res = await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${ds.id}/versions/2`, headers: as });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions`, headers: as });
    expect((res.json().data as DatasetVersion[]).map((v) => v.number)).toEqual([1]);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions/2/download`, headers: as });
    expect(res.statusCode).toBe(404);

    res = await t.app.inject({ method: 'GET', url: '/v1/trash', headers: as });
    const page = res.json().data as { items: Array<{ id: string; type: string; name: string }>; count: number };
    expect(page.count).toBe(page.items.length);
    const item = page.items.find((i) => i.type === 'datasetVersion');
    expect(item?.name).toBe('shapes-t v2');
    res = await t.app.inject({ method: 'POST', url: `/v1/trash/datasetVersion/${item!.id}/restore`, headers: as });
    expect(res.statusCode, res.body).toBeLessThan(300);
    res = await t.app.inject({ method: 'GET', url: `/v1/datasets/${ds.id}/versions`, headers: as });
    expect((res.json().data as DatasetVersion[]).map((v) => v.number)).toEqual([2, 1]);
    // A new version never reuses a number.
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: {} });
    expect(res.json().data.number).toBe(3);
  }, 300_000);

  it('processing again ends the rows older versions see instead of deleting them (ADR 0038): v1 and v2 zips unchanged, a new version', async () => {
    const u = await userWithKey(t, 'reprocessor');
    const ds = await shapes3Dataset(t, u.user.id, 'shapes-r');
    const as = { cookie: u.cookie };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: as });
    const added = await Promise.all(Array.from({ length: 3 }, (_, i) => makeImage('png', 44, 36, 120 + i * 7)));
    const mp = multipart(
      { split: 'train' },
      { field: 'files', filename: 'three.zip', content: buildZip(added.map((data, i) => ({ name: `r${i}.png`, data }))), contentType: 'application/zip' },
    );
    let res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/images`, headers: { ...as, ...mp.headers }, payload: mp.payload });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/versions`, headers: as, payload: { note: 'three more' } });
    expect(res.statusCode, res.body).toBe(201);
    const v1 = (await get(`/v1/datasets/${ds.id}/versions/1/download`)).rawPayload;
    const v2 = (await get(`/v1/datasets/${ds.id}/versions/2/download`)).rawPayload;
    const images2 = (await zipNames(v2)).filter((n) => n.startsWith('shapes-r-v2/images/'));
    const blobsBefore = await blobBytes();

    // The same archive processed again: the working state is the archive's images, and nothing a version sees is lost.
    res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/process`, headers: as });
    expect(res.statusCode, res.body).toBe(202);
    await t.app.ctx.jobs.drain();
    res = await get(`/v1/datasets/${ds.id}`);
    expect(res.json().data.status).toBe('Ready');
    res = await get(`/v1/datasets/${ds.id}/versions`);
    const list = res.json().data as DatasetVersion[];
    expect(list.map((v) => [v.number, v.note])).toEqual([
      [3, 'Processed again'],
      [2, 'three more'],
      [1, 'Version 1'],
    ]);
    expect(list[0]!.images).toBe(list[2]!.images);
    expect(list[1]!.images).toBe(list[2]!.images + 3);
    expect((await get(`/v1/datasets/${ds.id}/versions/1/download`)).rawPayload.equals(v1)).toBe(true);
    const again2 = (await get(`/v1/datasets/${ds.id}/versions/2/download`)).rawPayload;
    expect(again2.equals(v2)).toBe(true);
    expect((await zipNames(again2)).filter((n) => n.startsWith('shapes-r-v2/images/'))).toEqual(images2);
    // Version 2 still holds the 3 added images, so their blobs keep their bytes.
    expect(await blobBytes()).toBe(blobsBefore);
    res = await get(`/v1/datasets/${ds.id}/diff?from=2&to=3`);
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json().data as DatasetDiff;
    // Processing gives every image a new id, but the archive's images come back with the same bytes, split
    // and labels: matched by content hash they are unchanged; only the 3 added images left.
    expect(diff.removed.map((i) => i.name).sort()).toEqual(['r0.png', 'r1.png', 'r2.png']);
    expect(diff.added).toEqual([]);
    expect(diff.moved).toEqual([]);
    expect(diff.labelsChanged).toEqual([]);
  }, 300_000);

  it('a new archive replaces the file (ADR 0044): v1 images move to blobs first; v1 zip byte-identical, its images and previews serve, refs exact through purge', async () => {
    const u = await userWithKey(t, 'rearchiver');
    const ds = await shapes3Dataset(t, u.user.id, 'shapes-n');
    const as = { cookie: u.cookie };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: as });
    const owner = `u:${u.user.id}`;
    const zip1 = (await get(`/v1/datasets/${ds.id}/versions/1/download`)).rawPayload;
    const entries1 = await zipEntries(zip1);
    const v1Images = [...entries1.keys()].filter((n) => n.startsWith('shapes-n-v1/images/'));
    // Every blob's reference count is the number of revisions pointing at it (ADR 0037), and no revision reads an archive.
    const refsExact = async () => {
      const res = await t.database.db.execute(sql`
        SELECT b.storage_key, b.refs, (SELECT count(*) FROM dataset_images i WHERE i.blob_key = b.storage_key)::int AS n
        FROM dataset_blobs b WHERE b.owner_key = ${owner}`);
      const rows = (res as unknown as { rows: Array<{ storage_key: string; refs: number; n: number }> }).rows;
      for (const r of rows) expect(Number(r.refs), r.storage_key).toBe(r.n);
      return rows.length;
    };
    expect(await refsExact()).toBe(0);

    // The new archive lands at the same path as the old one (the harshest case: the file is overwritten in place).
    const fresh = await Promise.all([0, 1].map((k) => makeImage('png', 40, 32, 300 + k * 11)));
    const archive = buildZip(
      await yoloEntries({
        yaml: 'train: images/train\nval: images/val\nnames: [red_square, green_circle, blue_triangle]\n',
        images: [
          { split: 'train', name: 'n0.png', image: fresh[0], label: '0 0.5 0.5 0.2 0.2\n' },
          { split: 'val', name: 'n1.png', image: fresh[1], label: '1 0.5 0.5 0.2 0.2\n' },
        ],
      }),
    );
    await finishUpload(t.app.ctx, {
      id: 'rearchive-upload',
      uid: u.user.id,
      path: ds.storageKey,
      filename: 'shapes3.zip',
      bytes: archive.length,
      open: () => Readable.from([archive]),
    });
    expect((await t.app.ctx.blobs.head(ds.storageKey))?.bytes).toBe(archive.length);
    // No revision reads the archive any more; one blob per distinct image content of version 1.
    expect(await datasetsRepository.archiveBacked(t.database.db, ds.id)).toEqual([]);
    const distinct = new Set([...v1Images].map((n) => entries1.get(n)!.toString('base64'))).size;
    expect(await refsExact()).toBe(distinct);
    expect((await get(`/v1/datasets/${ds.id}/versions/1/download`)).rawPayload.equals(zip1)).toBe(true);

    let res = await t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/process`, headers: as });
    expect(res.statusCode, res.body).toBe(202);
    await t.app.ctx.jobs.drain();
    expect((await get(`/v1/datasets/${ds.id}`)).json().data.status).toBe('Ready');
    expect((await get(`/v1/datasets/${ds.id}/versions/1/download`)).rawPayload.equals(zip1)).toBe(true);
    const zip2 = await zipEntries((await get(`/v1/datasets/${ds.id}/versions/2/download`)).rawPayload);
    expect([...zip2.keys()].filter((n) => n.startsWith('shapes-n-v2/images/')).sort()).toEqual([
      'shapes-n-v2/images/train/n0.png',
      'shapes-n-v2/images/val/n1.png',
    ]);
    expect(zip2.get('shapes-n-v2/images/train/n0.png')!.equals(fresh[0]!)).toBe(true);

    // Version 1's images (now only in version 1) serve their original bytes and their previews.
    res = await get(`/v1/datasets/${ds.id}/diff?from=1&to=2`);
    const diff = res.json().data as DatasetDiff;
    expect(diff.removed).toHaveLength(v1Images.length);
    expect(diff.added.map((i) => i.name).sort()).toEqual(['n0.png', 'n1.png']);
    for (const img of diff.removed.slice(0, 5)) {
      const raw = await t.app.inject({ method: 'GET', url: img.url! });
      expect(raw.statusCode).toBe(200);
      expect(raw.rawPayload.equals(entries1.get(`shapes-n-v1/images/${img.split}/${img.name}`)!)).toBe(true);
      const thumb = await t.app.inject({ method: 'GET', url: img.thumbUrl! });
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toMatch(/^image\//);
    }
    await refsExact();

    // Purging the dataset takes every reference away: no blob row and no blob bytes of the owner stay.
    const keys = (await t.database.db.execute(sql`SELECT storage_key FROM dataset_blobs WHERE owner_key = ${owner}`)) as unknown as {
      rows: Array<{ storage_key: string }>;
    };
    expect(keys.rows.length).toBeGreaterThan(0);
    await purgeDataset(t.app.ctx, (await datasetsRepository.byId(t.database.db, ds.id))!);
    expect(await refsExact()).toBe(0);
    for (const k of keys.rows) expect(await t.app.ctx.blobs.head(k.storage_key)).toBeNull();
  }, 300_000);

  it("two users of a team edit the same dataset in parallel and save versions: no edit lost, every version's labels fit its class list", async () => {
    const owner = await userWithKey(t, 'concowner');
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const member = await buildUser(t.app);
    const team = await buildTeam(t.app, owner.cookie, { meta: { name: 'Editors' } });
    const ok = async (cookie: string, method: 'POST' | 'GET', url: string, payload?: object) => {
      const r = await t.app.inject({ method, url, headers: { cookie }, payload: payload as never });
      expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
      return r;
    };
    await ok(owner.cookie, 'POST', `/v1/teams/${team.id}/invites`, { email: member.email, role: 'member' });
    await ok(member.cookie, 'POST', `/api_v1/teams/${team.id}/invite/accept`);
    const ds = await shapes3Dataset(t, owner.user.id, 'shapes-c');
    await ok(owner.cookie, 'POST', `/v1/teams/${team.id}/items`, { kind: 'dataset', id: ds.id });
    const v1 = ((await ok(owner.cookie, 'GET', `/v1/datasets/${ds.id}/versions`)).json().data as DatasetVersion[])[0]!;
    const train = ((await ok(owner.cookie, 'GET', `/v1/datasets/${ds.id}/images?split=train&limit=8`)).json().data.results as Array<{ id: string }>).map(
      (i) => i.id,
    );
    const add = async (cookie: string, split: string, hue: number) => {
      const entries = (await Promise.all([0, 1, 2, 3, 4].map((k) => makeImage('png', 36, 30, hue + k * 3)))).flatMap((data, k) => [
        { name: `c${hue}-${k}.png`, data },
        { name: `c${hue}-${k}.txt`, data: `0 0.5 0.5 0.2 0.2\n0 0.3 0.3 0.1 0.1\n` }, // class 0 exists in every state of this test
      ]);
      const mp = multipart({ split }, { field: 'files', filename: 'five.zip', content: buildZip(entries), contentType: 'application/zip' });
      return t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/images`, headers: { cookie, ...mp.headers }, payload: mp.payload });
    };
    const post = (cookie: string, url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}${url}`, headers: { cookie }, payload });
    const results = await Promise.all([
      add(owner.cookie, 'val', 60),
      add(member.cookie, 'test', 90),
      post(owner.cookie, '/images/move', { imageIds: train.slice(0, 3), split: 'test' }),
      post(member.cookie, '/images/delete', { imageIds: train.slice(3, 6) }),
      post(owner.cookie, '/classes/rename', { from: 'red_square', to: 'red_box' }),
      post(member.cookie, '/classes/rename', { from: 'blue_triangle', to: 'blue_wedge' }),
      post(owner.cookie, '/versions', { note: 'owner mid-edit' }),
      post(member.cookie, '/versions', { note: 'member mid-edit' }),
      post(member.cookie, '/classes/delete', { class: 'green_circle', labels: 'remove' }),
      post(owner.cookie, '/images/move', { imageIds: train.slice(6, 8), split: 'val' }),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBeLessThan(300);
    expect(results.slice(0, 2).map((r) => r.json().data.added)).toEqual([5, 5]);

    // No edit lost: 10 added, 3 deleted, 5 moved, two renames and a class delete, in the working state.
    const last = (await post(owner.cookie, '/versions', { note: 'after' })).json().data as DatasetVersion;
    expect(last.images).toBe(v1.images + 10 - 3);
    expect(last.classes).toEqual(['red_box', 'blue_wedge']);
    const all: Array<{ id: string; split: string; name: string }> = [];
    for (let cursor = ''; ;) {
      const p = (await ok(owner.cookie, 'GET', `/v1/datasets/${ds.id}/images?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json().data;
      all.push(...p.results);
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
    }
    expect(all).toHaveLength(last.images);
    const byId = new Map(all.map((i) => [i.id, i]));
    for (const id of train.slice(3, 6)) expect(byId.has(id)).toBe(false);
    for (const id of train.slice(0, 3)) expect(byId.get(id)?.split).toBe('test');
    for (const id of train.slice(6, 8)) expect(byId.get(id)?.split).toBe('val');
    expect([...byId.values()].filter((i) => i.name.startsWith('c60-') && i.split === 'val')).toHaveLength(5);
    expect([...byId.values()].filter((i) => i.name.startsWith('c90-') && i.split === 'test')).toHaveLength(5);

    // Every version: its zip's data.yaml names its class list, and every label row's class is an index into it.
    const versions = (await ok(owner.cookie, 'GET', `/v1/datasets/${ds.id}/versions`)).json().data as DatasetVersion[];
    expect(versions.map((v) => v.number)).toEqual([4, 3, 2, 1]);
    for (const v of versions) {
      const zip = await zipEntries((await ok(owner.cookie, 'GET', `/v1/datasets/${ds.id}/versions/${v.number}/download`)).rawPayload);
      const yaml = zip.get(`shapes-c-v${v.number}/data.yaml`)!.toString();
      expect(yaml).toContain(`nc: ${v.classes.length}`);
      v.classes.forEach((c, i) => expect(yaml).toContain(`  ${i}: ${JSON.stringify(c)}`));
      const labelFiles = [...zip.entries()].filter(([n]) => n.includes('/labels/') && n.endsWith('.txt'));
      expect(labelFiles.length).toBeGreaterThan(0);
      for (const [n, buf] of labelFiles)
        for (const line of buf.toString().split('\n').filter(Boolean)) {
          const cls = Number(line.split(' ')[0]);
          expect(Number.isInteger(cls) && cls >= 0 && cls < v.classes.length, `${n}: ${line} (v${v.number} ${v.classes.join(',')})`).toBe(true);
        }
      expect([...zip.keys()].filter((k) => k.includes('/images/'))).toHaveLength(v.images);
    }
  }, 300_000);
});
