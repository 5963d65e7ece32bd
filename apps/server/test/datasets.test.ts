import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyticsEvents, datasets as datasetsTable, models as modelsTable } from '../src/platform/db/schema.js';
import { buildZip } from '../src/modules/datasets/processing/test-archives.js';
import { createTestApp, FIXTURES, type TestApp } from './support/harness.js';
import { buildDataset, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type H = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD', url: string, headers: H = {}, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as never });
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The tus 1.0 requests tus-js-client sends: create, then PATCH chunks from the server's offset. */
async function tusUpload(cookie: string, token: string, filename: string, bytes: Buffer, opts: { chunk?: number; stopAfter?: number } = {}) {
  const create = await req('POST', '/v1/uploads/tus', {
    cookie,
    'tus-resumable': '1.0.0',
    'upload-length': String(bytes.length),
    'upload-metadata': `token ${b64(token)},filename ${b64(filename)}`,
  });
  if (create.statusCode !== 201) return { create, location: null as string | null, last: create };
  const location = create.headers.location as string;
  const url = location.startsWith('http') ? new URL(location).pathname : location;
  return { create, location: url, last: await tusSend(cookie, url, bytes, opts) };
}
async function tusSend(cookie: string, url: string, bytes: Buffer, opts: { chunk?: number; stopAfter?: number } = {}) {
  const head = await req('HEAD', url, { cookie, 'tus-resumable': '1.0.0' });
  let offset = Number(head.headers['upload-offset']);
  const chunk = opts.chunk ?? 64 * 1024;
  let last = head;
  let sent = 0;
  while (offset < bytes.length) {
    if (opts.stopAfter !== undefined && sent >= opts.stopAfter) break;
    const body = bytes.subarray(offset, offset + chunk);
    last = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { cookie, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      payload: body,
    });
    if (last.statusCode !== 204) return last;
    offset = Number(last.headers['upload-offset']);
    sent += body.length;
  }
  return last;
}

async function uploadArchive(u: { cookie: string; user: { id: string } }, datasetId: string, filename: string, bytes: Buffer) {
  const tok = await req(
    'POST',
    '/v1/uploads/token',
    { cookie: u.cookie },
    { path: `users/${u.user.id}/datasets/${datasetId}/${filename}`, bytes: bytes.length },
  );
  expect(tok.statusCode).toBe(200);
  const up = await tusUpload(u.cookie, tok.json().data.token, filename, bytes);
  expect(up.last.statusCode).toBe(204);
}

async function processNow(cookie: string, id: string) {
  const res = await req('POST', `/v1/datasets/${id}/process`, { cookie });
  expect(res.statusCode).toBe(202);
  await t.app.ctx.jobs.drain();
  return (await req('GET', `/v1/datasets/${id}`, { cookie })).json().data;
}

describe('datasets end to end over HTTP', () => {
  it('create → token → resumable upload → process → Ready with stats, images and original bytes', async () => {
    const u = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie);
    expect(d).toMatchObject({ status: 'Initiating', task: 'detect', schemaVersion: 2, provider: 'hub', meta: { privacy: 'private' } });
    const zip = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
    const tok = await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/shapes3.zip`, bytes: zip.length });
    expect(tok.json().data.storageRemaining).toBe(20 * 1024 ** 3);
    expect((await req('GET', `/v1/datasets/${d.id}`, { cookie: u.cookie })).json().data.status).toBe('Uploading');

    // interrupted after ~100 kB, then resumed from the server's offset
    const first = await tusUpload(u.cookie, tok.json().data.token, 'shapes3.zip', zip, { chunk: 50_000, stopAfter: 100_000 });
    const head = await req('HEAD', first.location!, { cookie: u.cookie, 'tus-resumable': '1.0.0' });
    expect(Number(head.headers['upload-offset'])).toBe(100_000);
    const done = await tusSend(u.cookie, first.location!, zip, { chunk: 200_000 });
    expect(done.statusCode).toBe(204);

    const stored = await t.app.ctx.blobs.head(`users/${u.user.id}/datasets/${d.id}/shapes3.zip`);
    expect(stored?.bytes).toBe(zip.length);
    const ready = await processNow(u.cookie, d.id);
    expect(ready.status).toBe('Ready');
    expect(ready.dates.processed).not.toBeNull();
    expect(ready.stats).toEqual({ classes: ['red_square', 'green_circle', 'blue_triangle'], classCount: 3, images: 160, train: 120, val: 30, test: 10 });
    expect(ready.splitStats.train.instance_stats.total).toBe(301);
    expect(ready.previews.length).toBeGreaterThan(0);
    expect(ready.storage).toMatchObject({ filename: 'shapes3.zip', bytes: zip.length });

    const imgs = (await req('GET', `/v1/datasets/${d.id}/images?split=test&limit=10`, { cookie: u.cookie })).json().data;
    expect(imgs.total).toBe(10);
    const img = imgs.results.find((i: { name: string }) => i.name === 'test_0008.png');
    expect(img.labels.length).toBeGreaterThan(0);
    const raw = await t.app.inject({ method: 'GET', url: img.url });
    expect(raw.statusCode).toBe(200);
    expect(raw.rawPayload.equals(fs.readFileSync(path.join(FIXTURES, 'test-images/test_0008.png')))).toBe(true);
    const tampered = await t.app.inject({ method: 'GET', url: img.url.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`) });
    expect(tampered.statusCode).toBe(403);
    const thumb = await t.app.inject({ method: 'GET', url: img.thumbUrl });
    expect(thumb.statusCode).toBe(200);

    const events = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id))).map((e) => e.name);
    expect(events).toContain('create_dataset');
  });

  it('a broken archive fails with a per-file, per-line report; retry after fixing works', async () => {
    const u = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie, { meta: { name: 'Broken' }, task: 'detect' });
    const png = fs.readFileSync(path.join(FIXTURES, 'test-images/test_0000.png'));
    const bad = buildZip([
      { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' },
      { name: 'images/train/x.png', data: png },
      { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n7 0.5 0.5 0.2 0.2\n0 0.5 0.5\n' },
      { name: 'images/val/y.png', data: png },
      { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
    ]);
    await uploadArchive(u, d.id, 'broken.zip', bad);
    const failed = await processNow(u.cookie, d.id);
    expect(failed.status).toBe('Failed');
    expect(failed.dates.failed).not.toBeNull();
    // The only train pair is left out (ADR 0029): nothing to train on, so the dataset fails.
    expect(failed.error).toMatch(/dataset\/nothing-usable/);
    const report = (await req('GET', `/v1/datasets/${d.id}/report`, { cookie: u.cookie })).json().data;
    expect(report.leftOut).toEqual([
      expect.objectContaining({
        image: 'images/train/x.png',
        file: 'labels/train/x.txt',
        line: 2,
        code: 'label/class-id',
        message: expect.stringContaining('1 more problem'),
      }),
    ]);
    const txt = await req('GET', `/v1/datasets/${d.id}/report?format=txt`, { cookie: u.cookie });
    expect(txt.headers['content-disposition']).toMatch(/attachment/);
    expect(txt.body).toContain('labels/train/x.txt');
    expect((await req('GET', `/v1/datasets/${d.id}/images`, { cookie: u.cookie })).json().data.total).toBe(0);

    const fixed = buildZip([
      { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' },
      { name: 'images/train/x.png', data: png },
      { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n' },
      { name: 'images/val/y.png', data: png },
      { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
    ]);
    await uploadArchive(u, d.id, 'fixed.zip', fixed);
    const retry = await req('POST', `/v1/datasets/${d.id}/process`, { cookie: u.cookie });
    expect(retry.json().data).toMatchObject({ status: 'Retrying', error: null, dates: { failed: null } });
    await t.app.ctx.jobs.drain();
    const ok = (await req('GET', `/v1/datasets/${d.id}`, { cookie: u.cookie })).json().data;
    expect(ok.status).toBe('Ready');
    expect(ok.storage.bytes).toBe(fixed.length);
    // the old archive is gone, only the new one counts
    expect(await t.app.ctx.blobs.head(`users/${u.user.id}/datasets/${d.id}/broken.zip`)).toBeNull();
  });

  it('storage checks: too little for the token, and storage used up mid-upload', async () => {
    const u = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie);
    await req('POST', '/v1/models', { cookie: u.cookie }, { meta: { name: 'filler' } });
    await t.database.db
      .update(modelsTable)
      .set({ bytes: 20 * 1024 ** 3 - 500_000 })
      .where(eq(modelsTable.userId, u.user.id));
    const tooBig = await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/big.zip`, bytes: 600_000 });
    expect(tooBig.statusCode).toBe(403);
    expect(tooBig.json().error).toMatchObject({ code: 'InsufficientStorageError', details: { available: 500_000, required: 600_000 } });

    const bytes = Buffer.alloc(400_000, 1);
    const tok = (
      await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/mid.zip`, bytes: bytes.length })
    ).json().data.token;
    const up = await tusUpload(u.cookie, tok, 'mid.zip', bytes, { chunk: 100_000, stopAfter: 100_000 });
    // meanwhile something else fills the storage
    await t.database.db
      .update(modelsTable)
      .set({ bytes: 20 * 1024 ** 3 - 10_000 })
      .where(eq(modelsTable.userId, u.user.id));
    const rest = await tusSend(u.cookie, up.location!, bytes, { chunk: 100_000 });
    expect(rest.statusCode).toBe(403);
    expect(JSON.parse(rest.body).error.code).toBe('InsufficientStorageError');
    expect(await t.app.ctx.blobs.head(`users/${u.user.id}/datasets/${d.id}/mid.zip`)).toBeNull();
    const row = (await t.database.db.select().from(datasetsTable).where(eq(datasetsTable.id, d.id)))[0]!;
    expect(row.storageKey).toBeNull();
  });

  it('bad inputs: no archive, wrong path, someone else’s dataset, forged token, not a zip', async () => {
    const u = await buildUser(t.app);
    const other = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie);
    const noArchive = await req('POST', `/v1/datasets/${d.id}/process`, { cookie: u.cookie });
    expect(noArchive.json().error.code).toBe('NoArchiveProvided');
    const notArchive = await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/photo.jpg`, bytes: 10 });
    expect(notArchive.json().error.code).toBe('NoArchiveProvided');
    expect(
      (await req('POST', '/v1/uploads/token', { cookie: other.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/a.zip`, bytes: 10 })).statusCode,
    ).toBe(403);
    expect(
      (await req('POST', '/v1/uploads/token', { cookie: other.cookie }, { path: `users/${other.user.id}/datasets/${d.id}/a.zip`, bytes: 10 })).statusCode,
    ).toBe(404);
    const forged = await tusUpload(u.cookie, 'forged.token', 'a.zip', Buffer.from('x'));
    expect(forged.create.statusCode).toBe(403);
    // another user cannot continue my upload
    const tok = (await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/n.zip`, bytes: 20 })).json().data
      .token;
    const mine = await tusUpload(u.cookie, tok, 'n.zip', Buffer.alloc(20, 7), { stopAfter: 0 });
    const hijack = await t.app.inject({
      method: 'PATCH',
      url: mine.location!,
      headers: { cookie: other.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.alloc(20),
    });
    expect(hijack.statusCode).toBe(403);
    await tusSend(u.cookie, mine.location!, Buffer.from('definitely not a zip'));
    const failed = await processNow(u.cookie, d.id);
    expect(failed.status).toBe('Failed');
    expect(failed.error).toMatch(/archive\/not-a-zip/);
  });
});

describe('resuming across a server restart', () => {
  it('an upload interrupted by a restart continues at its offset on the new process, no byte lost', async () => {
    const { buildApp } = await import('../src/app.js');
    const u = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie);
    const zip = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
    const tok = (
      await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${d.id}/shapes3.zip`, bytes: zip.length })
    ).json().data.token;
    const first = await tusUpload(u.cookie, tok, 'shapes3.zip', zip, { chunk: 100_000, stopAfter: 300_000 });
    // The server goes away mid-upload (same data folder and database come back).
    await t.app.close();
    t.app = await buildApp({ config: t.config, database: t.database, clock: t.clock });
    await t.app.ready();
    const head = await req('HEAD', first.location!, { cookie: u.cookie, 'tus-resumable': '1.0.0' });
    expect(Number(head.headers['upload-offset'])).toBe(300_000);
    const done = await tusSend(u.cookie, first.location!, zip, { chunk: 250_000 });
    expect(done.statusCode).toBe(204);
    expect((await processNow(u.cookie, d.id)).status).toBe('Ready');
    const url = (await req('GET', `/v1/datasets/${d.id}/download`, { cookie: u.cookie })).json().data.url;
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.rawPayload.equals(zip)).toBe(true);
  });
});

describe('dataset sharing and authorization', () => {
  it('private: others cannot read, list, update, delete or download; unlisted: by id; public: listed', async () => {
    const owner = await buildUser(t.app);
    const other = await buildUser(t.app);
    const d = await buildDataset(t.app, owner.cookie, { meta: { name: 'Secret' }, task: 'detect' });
    await uploadArchive(owner, d.id, 'shapes3.zip', fs.readFileSync(path.join(FIXTURES, 'shapes3.zip')));
    await processNow(owner.cookie, d.id);
    const imgUrl = (await req('GET', `/v1/datasets/${d.id}/images?limit=1`, { cookie: owner.cookie })).json().data.results[0].url;
    for (const h of [{ cookie: other.cookie }, {}] as H[]) {
      expect((await req('GET', `/v1/datasets/${d.id}`, h)).statusCode).toBe(404);
      expect((await req('GET', `/v1/datasets/${d.id}/images`, h)).statusCode).toBe(404);
      expect((await req('GET', `/v1/datasets/${d.id}/download`, h)).statusCode).toBe(404);
      expect([401, 404]).toContain((await req('PATCH', `/v1/datasets/${d.id}`, h, { meta: { name: 'x' } })).statusCode);
      expect([401, 404]).toContain((await req('DELETE', `/v1/datasets/${d.id}`, h)).statusCode);
      expect([401, 404]).toContain((await req('POST', `/v1/datasets/${d.id}/share`, h, { privacy: 'public' })).statusCode);
    }
    expect((await req('GET', '/v1/datasets?public=true', {})).json().data.results.map((x: { id: string }) => x.id)).not.toContain(d.id);
    // image URLs are capabilities: signed per image
    expect((await t.app.inject({ method: 'GET', url: imgUrl })).statusCode).toBe(200);

    await req('POST', `/v1/datasets/${d.id}/share`, { cookie: owner.cookie }, { privacy: 'unlisted' });
    const anon = await req('GET', `/v1/datasets/${d.id}`, {});
    expect(anon.statusCode).toBe(200);
    expect(anon.json().data.abilities.canEdit).toBe(false);
    expect((await req('GET', `/v1/datasets/${d.id}/download`, {})).statusCode).toBe(200);
    expect((await req('GET', '/v1/datasets?public=true', {})).json().data.results.map((x: { id: string }) => x.id)).not.toContain(d.id);
    expect((await req('PATCH', `/v1/datasets/${d.id}`, { cookie: other.cookie }, { meta: { name: 'x' } })).statusCode).toBe(403);

    await req('POST', `/v1/datasets/${d.id}/share`, { cookie: owner.cookie }, { privacy: 'public' });
    expect((await req('GET', '/v1/datasets?public=true', {})).json().data.results.map((x: { id: string }) => x.id)).toContain(d.id);
    const dl = (await req('GET', `/v1/datasets/${d.id}/download`, {})).json().data.url;
    const file = await t.app.inject({ method: 'GET', url: dl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/shapes3\.zip/);

    // delete → trash → restore
    expect((await req('DELETE', `/v1/datasets/${d.id}`, { cookie: owner.cookie })).statusCode).toBe(200);
    expect((await req('GET', `/v1/datasets/${d.id}`, {})).statusCode).toBe(404);
    expect((await req('GET', '/v1/datasets', { cookie: owner.cookie })).json().data.results.map((x: { id: string }) => x.id)).not.toContain(d.id);
    expect((await req('GET', '/v1/trash', { cookie: owner.cookie })).json().data.items.map((x: { id: string }) => x.id)).toContain(d.id);
    expect((await req('POST', `/v1/datasets/${d.id}/restore`, { cookie: owner.cookie })).statusCode).toBe(200);
    expect((await req('GET', `/v1/datasets/${d.id}`, {})).statusCode).toBe(200);
  });

  it('lists filter by task and privacy', async () => {
    const u = await buildUser(t.app);
    await buildDataset(t.app, u.cookie, { meta: { name: 'd1' }, task: 'detect' });
    const c = await buildDataset(t.app, u.cookie, { meta: { name: 'c1' }, task: 'classify' });
    await req('POST', `/v1/datasets/${c.id}/share`, { cookie: u.cookie }, { privacy: 'public' });
    expect((await req('GET', '/v1/datasets?task=classify', { cookie: u.cookie })).json().data.results.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect((await req('GET', '/v1/datasets?privacy=public', { cookie: u.cookie })).json().data.total).toBe(1);
  });
});

describe('normalized zip for training clients', () => {
  it('rebuilds any uploaded layout as <slug>/data.yaml + images/labels, once, with the same stats', async () => {
    const { ensureNormalizedZip } = await import('../src/modules/datasets/datasets.export.js');
    const { processArchive } = await import('../src/modules/datasets/processing/index.js');
    const { datasetsRepository } = await import('../src/modules/datasets/datasets.repository.js');
    const u = await buildUser(t.app);
    const d = await buildDataset(t.app, u.cookie, { meta: { name: 'Robo Flow' }, task: 'detect' });
    const png = fs.readFileSync(path.join(FIXTURES, 'test-images/test_0000.png'));
    // Roboflow export layout: train/valid/test folders with a yaml pointing at ../train/images
    const robo = buildZip([
      { name: 'data.yaml', data: 'names: [cat, dog]\nnc: 2\ntrain: ../train/images\nval: ../valid/images\n' },
      { name: 'train/images/a.png', data: png },
      { name: 'train/labels/a.txt', data: '0 0.5 0.5 0.2 0.2\n1 0.25 0.25 0.1 0.1\n' },
      { name: 'valid/images/b.png', data: png, method: 'deflate' },
      { name: 'valid/labels/b.txt', data: '1 0.5 0.5 0.3 0.3\n' },
    ]);
    await uploadArchive(u, d.id, 'robo.zip', robo);
    expect((await processNow(u.cookie, d.id)).status).toBe('Ready');
    const row = (await datasetsRepository.byId(t.app.ctx.db, d.id))!;
    const first = await ensureNormalizedZip(t.app.ctx, row);
    expect(first.key).toMatch(/normalized\/\d+-\d+-robo-flow\.zip$/);
    const again = await ensureNormalizedZip(t.app.ctx, row);
    expect(again).toEqual(first);
    const local = t.app.ctx.blobs.localPath!(first.key)!;
    const result = await processArchive({ archivePath: local, task: 'detect' });
    expect(result.ok).toBe(true);
    expect(result.layout?.kind).toBe('yolo');
    expect(result.stats?.summary).toEqual({ classes: ['cat', 'dog'], classCount: 2, images: 2, train: 1, val: 1, test: 0 });
    const { openArchive } = await import('../src/modules/datasets/processing/archive.js');
    const archive = await openArchive(local);
    const names = archive.entries
      .toArray()
      .map((e) => e.name)
      .sort();
    expect(names).toEqual([
      'robo-flow/data.yaml',
      'robo-flow/images/train/a.png',
      'robo-flow/images/val/b.png',
      'robo-flow/labels/train/a.txt',
      'robo-flow/labels/val/b.txt',
    ]);
    const img = await archive.readEntry(archive.entries.toArray().find((e) => e.name.endsWith('val/b.png'))!.position, 1e7);
    expect(img.data.equals(png)).toBe(true);
    await archive.close();
  });
});
