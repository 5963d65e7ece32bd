import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { datasetImages, datasets } from '../src/platform/db/schema.js';
import { blobKeys } from '../src/platform/storage/blob-keys.js';
import { newId } from '../src/platform/ids.js';
import { buildZip, makeImage } from '../src/modules/datasets/processing/test-archives.js';
import { previewsSettled, READ_AHEAD } from '../src/modules/datasets/datasets.thumbnails.js';
import { datasetsRepository } from '../src/modules/datasets/datasets.repository.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Thumbnails are made on first view and kept (ADR 0019), not in a stage after Ready. A Ready dataset
 * has no previews stored yet; the first request for one makes it (once, however many ask at the same
 * time) and, in the preview pool, the images that follow it in browse order (ADR 0043: made ahead,
 * recorded in batches); later requests get the stored file; the link is the original's signed link,
 * so it dies with access; formats without a decoder get no preview link.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A 20×16 24-bit BMP (sharp has no BMP decoder: such images are listed without a preview). */
function bmp(width = 20, height = 16) {
  const row = Math.ceil((width * 3) / 4) * 4;
  const b = Buffer.alloc(54 + row * height, 0x80);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

async function readyDataset(userId: string, images?: Array<{ name: string; data: Buffer | string; method?: 'store' | 'deflate' }>) {
  const id = newId();
  const storageKey = blobKeys.datasetFile(userId, id, 'thumbs.zip');
  const entries = images ?? [
    { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' },
    // Deflated and stored entries: the preview reads the byte range and inflates where needed.
    { name: 'images/train/big.jpg', data: await makeImage('jpeg', 640, 480, 30), method: 'deflate' as const },
    { name: 'images/train/small.png', data: await makeImage('png', 64, 48, 90), method: 'store' as const },
    { name: 'images/train/old.bmp', data: bmp() },
    { name: 'images/val/v.png', data: await makeImage('png', 120, 90, 200), method: 'deflate' as const },
    { name: 'labels/train/big.txt', data: '0 0.5 0.5 0.2 0.2\n' },
    { name: 'labels/train/small.txt', data: '1 0.5 0.5 0.2 0.2\n' },
    { name: 'labels/train/old.txt', data: '1 0.5 0.5 0.2 0.2\n' },
    { name: 'labels/val/v.txt', data: '0 0.5 0.5 0.2 0.2\n' },
  ];
  await t.app.ctx.blobs.put(storageKey, buildZip(entries));
  const now = t.clock.now();
  await t.database.db.insert(datasets).values({
    id,
    userId,
    slug: `thumbs-${id}`,
    name: 'thumbs',
    task: 'detect',
    status: 'Loading',
    storageKey,
    filename: 'thumbs.zip',
    bytes: 1,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
  });
  await t.app.ctx.jobs.enqueue('dataset.process', { datasetId: id }, { dedupeKey: `dataset:${id}` });
  await t.app.ctx.jobs.drain();
  return id;
}

type Img = { id: string; name: string; thumbUrl: string | null; url: string };

/** A detection dataset of `n` small JPEGs img_000.jpg… in train and one, zz.jpg, in val (browse order: split, then name). */
async function manyImages(n: number) {
  const jpeg = await makeImage('jpeg', 48, 32, 120);
  const label = '0 0.5 0.5 0.2 0.2\n';
  const entries: Array<{ name: string; data: Buffer | string }> = [
    { name: 'data.yaml', data: 'names: [a]\ntrain: images/train\nval: images/val\n' },
    { name: 'images/val/zz.jpg', data: jpeg },
    { name: 'labels/val/zz.txt', data: label },
  ];
  for (let i = 0; i < n; i++) {
    const name = `img_${String(i).padStart(3, '0')}`;
    entries.push({ name: `images/train/${name}.jpg`, data: jpeg }, { name: `labels/train/${name}.txt`, data: label });
  }
  return entries;
}
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('thumbnails on first view', () => {
  it('none stored at Ready; the first view makes one ≤ 256 px JPEG, kept and served from storage after', async () => {
    const u = await buildUser(t.app);
    const id = await readyDataset(u.user.id);
    const d = (await get(`/v1/datasets/${id}`, { cookie: u.cookie })).json().data;
    expect(d.status).toBe('Ready');
    // The card's previews are links to the same lazy route (BMP left out).
    expect(d.previews).toHaveLength(3);
    for (const p of d.previews as string[]) expect(p).toMatch(new RegExp(`^/v1/datasets/${id}/images/[^/]+/thumb\\?sig=`));

    const stored = async () => {
      const keys: string[] = [];
      for await (const e of t.app.ctx.blobs.list(blobKeys.datasetThumbs(u.user.id, id))) keys.push(e.key);
      return keys;
    };
    expect(await stored()).toEqual([]);
    const rows = await t.database.db.select().from(datasetImages).where(eq(datasetImages.datasetId, id));
    expect(rows.map((r) => r.thumbKey)).toEqual([null, null, null, null]);

    const images = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const byName = new Map(images.map((i) => [i.name, i]));
    expect(byName.get('old.bmp')!.thumbUrl).toBeNull();

    const big = byName.get('big.jpg')!;
    const puts: string[] = [];
    const put = t.app.ctx.blobs.put.bind(t.app.ctx.blobs);
    t.app.ctx.blobs.put = async (key, body, opts) => {
      puts.push(key);
      return put(key, body, opts);
    };
    const first = await get(big.thumbUrl!);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 256, height: 192 });
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
    // Kept: in storage and recorded on the image (in a batch, once the pool is idle). The images after
    // it in browse order (small.png, then v.png of the val split; not the BMP) were made ahead.
    await previewsSettled();
    const key = (name: string) => `${blobKeys.datasetThumbs(u.user.id, id)}${byName.get(name)!.id}.jpg`;
    expect((await stored()).sort()).toEqual([key('big.jpg'), key('small.png'), key('v.png')].sort());
    const recorded = await t.database.db.select().from(datasetImages).where(eq(datasetImages.datasetId, id));
    expect(Object.fromEntries(recorded.map((r) => [r.name, r.thumbKey]))).toEqual({
      'big.jpg': key('big.jpg'),
      'small.png': key('small.png'),
      'v.png': key('v.png'),
      'old.bmp': null,
    });
    // Viewing the ones made ahead makes nothing again.
    t.app.ctx.blobs.put = put;
    expect((await get(byName.get('v.png')!.thumbUrl!)).statusCode).toBe(200);
    await previewsSettled();
    expect(puts.sort()).toEqual([key('big.jpg'), key('small.png'), key('v.png')].sort());
    const again = await get(big.thumbUrl!);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const head = await t.app.inject({ method: 'HEAD', url: big.thumbUrl! });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(first.rawPayload.length);

    // Smaller than 256 px: not enlarged.
    const small = await get(byName.get('small.png')!.thumbUrl!);
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
  });

  it(`a miss makes the next ${READ_AHEAD} images ahead, no more; a later miss further on makes the rest`, async () => {
    const u = await buildUser(t.app);
    const n = READ_AHEAD + 24;
    const id = await readyDataset(u.user.id, await manyImages(n));
    const images = (await get(`/v1/datasets/${id}/images?limit=${n + 1}`, { cookie: u.cookie })).json().data.results as Img[];
    expect(images.map((i) => i.name)).toEqual([...Array.from({ length: n }, (_, i) => `img_${String(i).padStart(3, '0')}.jpg`), 'zz.jpg']);
    const made = async () =>
      (await t.database.db.select().from(datasetImages).where(eq(datasetImages.datasetId, id)))
        .filter((r) => r.thumbKey)
        .map((r) => r.name)
        .sort();

    expect((await get(images[0]!.thumbUrl!)).statusCode).toBe(200);
    await previewsSettled();
    expect(await made()).toEqual(images.slice(0, READ_AHEAD + 1).map((i) => i.name));
    // The next page's requests find their previews made (answered from memory, made ahead).
    for (const i of images.slice(1, 6)) expect((await get(i.thumbUrl!)).statusCode).toBe(200);
    // A jump past what was made: that image first, then the ones after it up to the end (into the val split).
    const at = READ_AHEAD + 10;
    const res = await get(images[at]!.thumbUrl!);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 48, height: 32 });
    await previewsSettled();
    expect(await made()).toEqual([...images.slice(0, READ_AHEAD + 1), ...images.slice(at)].map((i) => i.name));
  });

  it('a person reaching the images made ahead tops the read-ahead up from the last one made, without a miss', async () => {
    const u = await buildUser(t.app);
    const n = 2 * READ_AHEAD;
    const id = await readyDataset(u.user.id, await manyImages(n));
    const images = (await get(`/v1/datasets/${id}/images?limit=${n + 1}`, { cookie: u.cookie })).json().data.results as Img[];
    const made = async () =>
      (await t.database.db.select().from(datasetImages).where(eq(datasetImages.datasetId, id)))
        .filter((r) => r.thumbKey)
        .map((r) => r.name)
        .sort();
    const first = await get(images[0]!.thumbUrl!);
    await previewsSettled();
    expect(await made()).toEqual(images.slice(0, READ_AHEAD + 1).map((i) => i.name));
    // Viewing the images made ahead one by one: when fewer than half of them are left unseen, the next
    // ones are queued (as many as bring the unseen back to READ_AHEAD), with no request missing.
    const seen = READ_AHEAD / 2 + 12;
    for (const i of images.slice(1, seen + 1)) {
      const res = await get(i.thumbUrl!);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(first.rawPayload)).toBe(true);
    }
    await previewsSettled();
    const toppedUp = READ_AHEAD / 2 + 1;
    expect(await made()).toEqual(images.slice(0, READ_AHEAD + 1 + toppedUp).map((i) => i.name));
  });

  it('twenty requests at once for a preview not made yet make it once and all get the same bytes', async () => {
    const u = await buildUser(t.app);
    const id = await readyDataset(u.user.id);
    const images = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const v = images.find((i) => i.name === 'v.png')!;
    const puts: string[] = [];
    const put = t.app.ctx.blobs.put.bind(t.app.ctx.blobs);
    t.app.ctx.blobs.put = async (key, body, opts) => {
      puts.push(key);
      return put(key, body, opts);
    };
    try {
      const all = await Promise.all(Array.from({ length: 20 }, () => get(v.thumbUrl!)));
      expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      for (const r of all) expect(r.rawPayload.equals(all[0]!.rawPayload)).toBe(true);
      // v.png is the last image in browse order: nothing after it to make ahead.
      await previewsSettled();
      expect(puts).toEqual([`${blobKeys.datasetThumbs(u.user.id, id)}${v.id}.jpg`]);
    } finally {
      t.app.ctx.blobs.put = put;
    }
  });

  it('the preview link is the original signed link: tampered 403, expired 410, trashed 404, BMP route 404', async () => {
    const u = await buildUser(t.app);
    const id = await readyDataset(u.user.id);
    const images = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const big = images.find((i) => i.name === 'big.jpg')!;
    const tampered = big.thumbUrl!.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await get(tampered)).statusCode).toBe(403);
    // A BMP's original link turned into a preview link: a clear 404, nothing stored.
    const old = images.find((i) => i.name === 'old.bmp')!;
    const noPreview = await get(old.url.replace('/raw?', '/thumb?'));
    expect(noPreview.statusCode).toBe(404);
    expect(noPreview.json().error.message).toMatch(/no preview/);

    t.clock.advance(21 * 60_000);
    expect((await get(big.thumbUrl!)).statusCode).toBe(410);
    const fresh = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const url = fresh.find((i) => i.name === 'big.jpg')!.thumbUrl!;
    expect((await get(url)).statusCode).toBe(200);
    await previewsSettled();
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${id}`, headers: { cookie: u.cookie } })).statusCode).toBeLessThan(300);
    expect([403, 404]).toContain((await get(url)).statusCode);
  });

  it('the dataset behind preview links is read once, then cached; a change made in SQL alone still ends the links within a second', async () => {
    const u = await buildUser(t.app);
    const id = await readyDataset(u.user.id);
    const images = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const urls = images.filter((i) => i.thumbUrl).map((i) => i.thumbUrl!);
    expect(urls.length).toBe(3);
    const linkFacts = datasetsRepository.linkFacts;
    let reads = 0;
    datasetsRepository.linkFacts = async (...args) => (reads++, linkFacts(...args));
    try {
      for (const url of urls) expect((await get(url)).statusCode).toBe(200);
      const again = await get(urls[0]!);
      expect(again.statusCode).toBe(200);
      expect(again.headers['cache-control']).toBe('private, max-age=600, immutable');
      expect(reads).toBe(1);
      await previewsSettled();
      // No service and no domain event: only the trigger's NOTIFY (migration 0037) tells this instance.
      await t.database.db.update(datasets).set({ privacy: 'public' }).where(eq(datasets.id, id));
      const t0 = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - t0 < 1000) {
        status = (await get(urls[0]!)).statusCode;
        if (status === 200) await new Promise((r) => setTimeout(r, 10));
      }
      expect(status).toBe(403);
      expect(reads).toBeGreaterThan(1);
    } finally {
      datasetsRepository.linkFacts = linkFacts;
    }
  });

  it('reprocessing removes the stored previews; a preview made for an image that is gone is not kept; version 1 still shows its images', async () => {
    const u = await buildUser(t.app);
    const id = await readyDataset(u.user.id);
    const images = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const big = images.find((i) => i.name === 'big.jpg')!;
    expect((await get(big.thumbUrl!)).statusCode).toBe(200);
    const prefix = blobKeys.datasetThumbs(u.user.id, id);
    const count = async () => {
      let n = 0;
      for await (const e of t.app.ctx.blobs.list(prefix)) if (e.key) n++;
      return n;
    };
    await previewsSettled();
    expect(await count()).toBe(3); // big.jpg and the two made ahead
    await t.app.ctx.jobs.enqueue('dataset.process', { datasetId: id }, { dedupeKey: `dataset:${id}:again` });
    await t.app.ctx.jobs.drain();
    expect(await count()).toBe(0);

    // A reprocess that replaces the images while a preview is being made: the made file is removed.
    const now = (await get(`/v1/datasets/${id}/images?limit=10`, { cookie: u.cookie })).json().data.results as Img[];
    const v = now.find((i) => i.name === 'v.png')!;
    const put = t.app.ctx.blobs.put.bind(t.app.ctx.blobs);
    t.app.ctx.blobs.put = async (key, body, opts) => {
      const out = await put(key, body, opts);
      await t.database.db.delete(datasetImages).where(eq(datasetImages.id, v.id));
      return out;
    };
    try {
      expect((await get(v.thumbUrl!)).statusCode).toBe(200);
      await previewsSettled();
    } finally {
      t.app.ctx.blobs.put = put;
    }
    expect(await count()).toBe(0);
    // Version 1 still holds the image the reprocess replaced (its row was ended, not deleted: ADR 0038),
    // so the old link still shows it.
    expect((await get(big.thumbUrl!)).statusCode).toBe(200);
  });
});
