/**
 * Edits of a dataset's working state (ADR 0037): adding images with the upload's rules and report,
 * moving, copying, deleting, class rename/merge/delete, label records with revisions, content-addressed
 * blobs with exact reference counts through the trash, quota by unique bytes, and concurrent edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { datasetBlobs, datasetImages } from '../src/platform/db/schema.js';
import { datasetsRepository } from '../src/modules/datasets/datasets.repository.js';
import { buildZip, makeImage, yoloEntries } from '../src/modules/datasets/processing/test-archives.js';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildUser, type BuiltUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as never });

/** A processed detect dataset of `n` train images and 2 val images, classes red and green. */
async function readyDataset(u: BuiltUser, n = 4) {
  const d = await buildDataset(t.app, u.cookie);
  const images = [
    ...Array.from({ length: n }, (_, i) => ({ split: 'train' as const, name: `t${i}.png`, label: `${i % 2} 0.5 0.5 0.2 0.2\n` })),
    { split: 'val' as const, name: 'v0.png', label: '0 0.4 0.4 0.1 0.1\n' },
    { split: 'val' as const, name: 'v1.png', label: '' },
  ];
  const zip = buildZip(await yoloEntries({ images }));
  const key = `users/${u.user.id}/datasets/${d.id}/data.zip`;
  await t.app.ctx.blobs.put(key, zip);
  await datasetsRepository.update(t.app.ctx.db, d.id, { storageKey: key, filename: 'data.zip', bytes: zip.length, uploadedAt: new Date() });
  expect((await req('POST', `/v1/datasets/${d.id}/process`, u.cookie)).statusCode).toBe(202);
  await t.app.ctx.jobs.drain();
  const ready = (await req('GET', `/v1/datasets/${d.id}`, u.cookie)).json().data;
  expect(ready.status).toBe('Ready');
  return ready as { id: string; stats: { images: number; classes: string[] } };
}

async function addZip(u: BuiltUser, datasetId: string, split: string, entries: Array<{ name: string; data: Buffer | string }>) {
  const mp = multipart({ split }, { field: 'files', filename: 'add.zip', content: buildZip(entries), contentType: 'application/zip' });
  return t.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/images`, headers: { cookie: u.cookie, ...mp.headers }, payload: mp.payload });
}

const images = async (u: BuiltUser, id: string, q = '') => (await req('GET', `/v1/datasets/${id}/images?limit=200${q}`, u.cookie)).json().data;
const blobsOf = (ownerKey: string) => t.database.db.select().from(datasetBlobs).where(eq(datasetBlobs.ownerKey, ownerKey));

describe('dataset edits (ADR 0037)', () => {
  it('adds images with the upload rules and report, moves, renames, deletes; labels keep a revision', async () => {
    const u = await buildUser(t.app);
    const d = await readyDataset(u);
    expect(d.stats.images).toBe(6);
    const a = await makeImage('png', 40, 30, 1);
    const b = await makeImage('png', 40, 30, 2);
    const c = await makeImage('png', 40, 30, 3);
    const res = await addZip(u, d.id, 'val', [
      { name: 'x/a.png', data: a },
      { name: 'x/a.txt', data: '1 0.5 0.5 0.3 0.3\n' },
      { name: 'b.png', data: b },
      { name: 'c.png', data: c },
      { name: 'c.txt', data: '7 0.5 0.5 0.3 0.3\n' }, // class 7 of 2: the upload rule leaves the pair out
    ]);
    expect(res.statusCode).toBe(200);
    const added = res.json().data;
    expect(added.added).toBe(2);
    expect(added.report.leftOutCount).toBe(1);
    expect(added.report.leftOut[0].image).toContain('c.png');
    expect(added.seq).toBeGreaterThan(1);

    let page = await images(u, d.id, '&split=val');
    expect(page.results.map((i: { name: string }) => i.name).sort()).toEqual(['a.png', 'b.png', 'v0.png', 'v1.png']);
    const imgA = page.results.find((i: { name: string }) => i.name === 'a.png');
    expect(imgA.labels).toEqual([[1, 0.5, 0.5, 0.3, 0.3]]);
    expect(imgA.sha256).toMatch(/^[0-9a-f]{64}$/);
    const raw = await t.app.inject({ method: 'GET', url: imgA.url });
    expect(raw.rawPayload.equals(a)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: imgA.thumbUrl })).statusCode).toBe(200);

    // keyset paging: pages of 3 cover every image once
    const seen: string[] = [];
    for (let cursor = ''; ;) {
      const p = (await req('GET', `/v1/datasets/${d.id}/images?limit=3${cursor ? `&cursor=${cursor}` : ''}`, u.cookie)).json().data;
      seen.push(...p.results.map((i: { id: string }) => i.id));
      // Every page carries the dataset's total, from its statistics (ADR 0042), not a count per page.
      expect(p.total).toBe(8);
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
    }
    expect(seen.length).toBe(8);
    expect(new Set(seen).size).toBe(8);
    expect((await req('GET', `/v1/datasets/${d.id}/images?cursor=nope`, u.cookie)).statusCode).toBe(400);

    // move a.png to train, rename a class, delete b.png
    expect((await req('POST', `/v1/datasets/${d.id}/images/move`, u.cookie, { imageIds: [imgA.id], split: 'train' })).statusCode).toBe(200);
    const renamed = await req('POST', `/v1/datasets/${d.id}/classes/rename`, u.cookie, { from: 'green', to: 'lime' });
    expect(renamed.json().data.classes).toEqual(['red', 'lime']);
    const imgB = page.results.find((i: { name: string }) => i.name === 'b.png');
    expect((await req('POST', `/v1/datasets/${d.id}/images/delete`, u.cookie, { imageIds: [imgB.id] })).statusCode).toBe(200);
    expect((await req('POST', `/v1/datasets/${d.id}/images/delete`, u.cookie, { imageIds: ['nope'] })).statusCode).toBe(404);
    const after = (await req('GET', `/v1/datasets/${d.id}`, u.cookie)).json().data;
    expect(after.stats).toMatchObject({ classes: ['red', 'lime'], images: 7, train: 5, val: 2 });
    page = await images(u, d.id, '&split=train');
    expect(page.results.find((i: { id: string }) => i.id === imgA.id).split).toBe('train');

    // labels: read, write with the revision read, a stale write is a conflict with the labels now
    const labels = (await req('GET', `/v1/datasets/${d.id}/images/${imgA.id}/labels`, u.cookie)).json().data;
    expect(labels).toMatchObject({ imageId: imgA.id, revision: 1, labels: [[1, 0.5, 0.5, 0.3, 0.3]] });
    const put = await req('PUT', `/v1/datasets/${d.id}/images/${imgA.id}/labels`, u.cookie, { revision: 1, labels: [[0, 0.2, 0.2, 0.1, 0.1]] });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ revision: 2, labels: [[0, 0.2, 0.2, 0.1, 0.1]] });
    const stale = await req('PUT', `/v1/datasets/${d.id}/images/${imgA.id}/labels`, u.cookie, { revision: 1, labels: [] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('error/labels-conflict');
    expect(stale.json().error.details.current).toMatchObject({ revision: 2, labels: [[0, 0.2, 0.2, 0.1, 0.1]] });
    const bad = await req('PUT', `/v1/datasets/${d.id}/images/${imgA.id}/labels`, u.cookie, {
      revision: 2,
      labels: [
        [0, 0.5, 0.5, 0.1, 0.1],
        [9, 0.5, 0.5, 0.1, 0.1],
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.message).toContain('labels[1]');

    // merge lime into red: every label is class 0, one class left
    const merged = await req('POST', `/v1/datasets/${d.id}/classes/merge`, u.cookie, { from: ['lime'], into: 'red' });
    expect(merged.json().data.classes).toEqual(['red']);
    const all = await images(u, d.id);
    expect(all.results.flatMap((i: { labels: number[][] }) => i.labels.map((r) => r[0]))).not.toContain(1);

    // a stranger may not edit
    const other = await buildUser(t.app);
    expect((await req('POST', `/v1/datasets/${d.id}/images/delete`, other.cookie, { imageIds: [imgA.id] })).statusCode).toBe(404);
  });

  it('blobs dedupe within an owner and never across; copies cost no bytes; refs stay exact through trash, restore and purge', async () => {
    const u = await buildUser(t.app);
    const d1 = await readyDataset(u, 2);
    const d2 = await readyDataset(u, 2);
    const img = await makeImage('png', 50, 20, 9);
    const storage0 = (await req('GET', '/v1/users/me/storage', u.cookie)).json().data.used;
    expect((await addZip(u, d1.id, 'train', [{ name: 'same.png', data: img }])).json().data.added).toBe(1);
    expect((await addZip(u, d2.id, 'train', [{ name: 'same.png', data: img }])).json().data.added).toBe(1);
    let blobs = await blobsOf(`u:${u.user.id}`);
    expect(blobs.length).toBe(1);
    expect(blobs[0]!.refs).toBe(2);
    const storage1 = (await req('GET', '/v1/users/me/storage', u.cookie)).json().data.used;
    expect(storage1 - storage0).toBe(img.length); // unique bytes once

    // copy to a split and to another dataset of the same owner: same blob, more references, no bytes
    const id = (await images(u, d1.id)).results.find((i: { name: string }) => i.name === 'same.png').id;
    const copied = await req('POST', `/v1/datasets/${d1.id}/images/copy`, u.cookie, { imageIds: [id], datasetId: d2.id, split: 'val' });
    expect(copied.statusCode).toBe(200);
    blobs = await blobsOf(`u:${u.user.id}`);
    expect(blobs.length).toBe(1);
    expect(blobs[0]!.refs).toBe(3);
    expect((await req('GET', '/v1/users/me/storage', u.cookie)).json().data.used).toBe(storage1);

    // another owner adding the same bytes gets a blob of its own
    const v = await buildUser(t.app);
    const dv = await readyDataset(v, 2);
    expect((await addZip(v, dv.id, 'train', [{ name: 'same.png', data: img }])).json().data.added).toBe(1);
    expect((await blobsOf(`v:${v.user.id}`)).length).toBe(0);
    expect((await blobsOf(`u:${v.user.id}`)).length).toBe(1);
    expect((await blobsOf(`u:${u.user.id}`))[0]!.refs).toBe(3);

    // trash and restore keep every reference; purge takes the dataset's away, the last one takes the bytes
    expect((await req('DELETE', `/v1/datasets/${d2.id}`, u.cookie)).statusCode).toBe(200);
    expect((await blobsOf(`u:${u.user.id}`))[0]!.refs).toBe(3);
    expect((await req('POST', `/v1/datasets/${d2.id}/restore`, u.cookie)).statusCode).toBe(200);
    expect((await blobsOf(`u:${u.user.id}`))[0]!.refs).toBe(3);
    expect((await req('DELETE', `/v1/datasets/${d2.id}?hard=true`, u.cookie)).statusCode).toBe(200);
    blobs = await blobsOf(`u:${u.user.id}`);
    expect(blobs[0]!.refs).toBe(1);
    const key = blobs[0]!.storageKey;
    expect(await t.app.ctx.blobs.head(key)).not.toBeNull();
    expect((await req('DELETE', `/v1/datasets/${d1.id}?hard=true`, u.cookie)).statusCode).toBe(200);
    expect((await blobsOf(`u:${u.user.id}`)).length).toBe(0);
    expect(await t.app.ctx.blobs.head(key)).toBeNull();
    expect((await req('GET', '/v1/users/me/storage', u.cookie)).json().data.used).toBeLessThan(storage0);
  });

  it('concurrent adds, moves, deletes and class renames lose no edit and labels always fit the class list', async () => {
    const u = await buildUser(t.app);
    const d = await readyDataset(u, 6);
    const before = await images(u, d.id);
    const ids: string[] = before.results.filter((i: { split: string }) => i.split === 'train').map((i: { id: string }) => i.id);
    const adds = await Promise.all(
      [11, 12, 13].map(async (h) =>
        addZip(u, d.id, 'test', [
          { name: `n${h}.png`, data: await makeImage('png', 30, 30, h) },
          { name: `n${h}.txt`, data: '1 0.5 0.5 0.2 0.2\n' },
        ]),
      ),
    );
    const results = await Promise.all([
      ...adds.map(async (r) => r),
      req('POST', `/v1/datasets/${d.id}/images/move`, u.cookie, { imageIds: [ids[0]], split: 'val' }),
      req('POST', `/v1/datasets/${d.id}/images/delete`, u.cookie, { imageIds: [ids[1]] }),
      req('POST', `/v1/datasets/${d.id}/classes/rename`, u.cookie, { from: 'green', to: 'green2' }),
      req('POST', `/v1/datasets/${d.id}/classes/delete`, u.cookie, { class: 'red' }),
      req('PUT', `/v1/datasets/${d.id}/images/${ids[2]}/labels`, u.cookie, { revision: 1, labels: [[1, 0.3, 0.3, 0.1, 0.1]] }),
    ]);
    // Every edit answered: the label write may come after the class delete (its revision or its class 1 gone).
    for (const r of results.slice(0, 7)) expect(r.statusCode).toBe(200);
    expect([200, 409, 422]).toContain(results[7]!.statusCode);
    const seqs = results
      .filter((r) => r.statusCode === 200)
      .map((r) => r.json().data.seq ?? null)
      .filter((s) => s !== null);
    expect(new Set(seqs).size).toBe(seqs.length); // each edit its own sequence number
    const now = (await req('GET', `/v1/datasets/${d.id}`, u.cookie)).json().data;
    expect(now.stats.classes).toEqual(['green2']);
    const page = await images(u, d.id);
    expect(page.total).toBe(8 + 3 - 1);
    expect(now.stats.images).toBe(page.total);
    for (const i of page.results as Array<{ labels: number[][] }>) for (const r of i.labels) expect(r[0]).toBeLessThan(now.stats.classes.length);
    expect(page.results.find((i: { id: string }) => i.id === ids[0]).split).toBe('val');
    const rows = await t.database.db.select().from(datasetImages).where(eq(datasetImages.datasetId, d.id));
    expect(rows.filter((r) => r.revTo === null).length).toBe(page.total);
  });
});
