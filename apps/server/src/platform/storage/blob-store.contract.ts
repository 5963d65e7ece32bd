import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobRangeError, InvalidBlobKeyError, type BlobStore } from './blob-store.js';

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sha256(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest('hex'), bytes };
}

/** Random bytes produced on demand, hashed as they go out, so nothing holds the whole body. */
function generated(total: number) {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let sent = 0; sent < total;) {
      const chunk = randomBytes(Math.min(64 * 1024, total - sent));
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), digest: () => hash.digest('hex') };
}

function failingAfter(bytes: number): Readable {
  return Readable.from(
    (async function* () {
      yield randomBytes(bytes);
      throw new Error('client went away');
    })(),
  );
}

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of store.list(prefix)) keys.push(key);
  return keys.sort();
}

export interface BlobStoreCapabilities {
  /** The local store has nowhere to keep a content type. */
  storesContentType: boolean;
}

/** The behaviour every BlobStore must share; run against each implementation with a fresh, empty store. */
export function describeBlobStore(name: string, factory: () => Promise<BlobStore>, caps: BlobStoreCapabilities): void {
  describe(`${name} (BlobStore contract)`, () => {
    let store: BlobStore;
    let ns: string;

    beforeAll(async () => {
      store = await factory();
      await store.init();
    });
    beforeEach(() => {
      ns = `t/${randomUUID()}`;
    });

    it('round-trips a Buffer', async () => {
      const body = randomBytes(1000);
      expect(await store.put(`${ns}/a.bin`, body)).toEqual({ bytes: 1000 });
      const got = await store.get(`${ns}/a.bin`);
      expect(got.bytes).toBe(1000);
      expect((await readAll(got.stream)).equals(body)).toBe(true);
    });

    it('round-trips an empty blob', async () => {
      expect(await store.put(`${ns}/empty`, Buffer.alloc(0))).toEqual({ bytes: 0 });
      const got = await store.get(`${ns}/empty`);
      expect(got.bytes).toBe(0);
      expect((await readAll(got.stream)).length).toBe(0);
      expect((await store.head(`${ns}/empty`))?.bytes).toBe(0);
    });

    it('streams a multi-megabyte body in and out', async () => {
      const total = 12 * 1024 * 1024 + 123; // odd size, more than one multipart part
      const source = generated(total);
      expect(await store.put(`${ns}/big.bin`, source.stream, { contentLength: total })).toEqual({ bytes: total });
      const got = await store.get(`${ns}/big.bin`);
      expect(got.bytes).toBe(total);
      expect(await sha256(got.stream)).toEqual({ hex: source.digest(), bytes: total });
    });

    it('keeps keys with spaces, unicode and URL metacharacters intact', async () => {
      const key = `${ns}/dir with space/ünï cødé+%&?#.txt`;
      await store.put(key, Buffer.from('hi'));
      expect((await readAll((await store.get(key)).stream)).toString()).toBe('hi');
      expect(await keysOf(store, `${ns}/`)).toEqual([key]);
      // s3rver decodes x-amz-copy-source with decodeURI, which leaves %2B %26 %3F %23 encoded, so copy sticks to the rest.
      const copyable = `${ns}/dir with space/ünï cødé 100%.txt`;
      await store.put(copyable, Buffer.from('hi'));
      await store.copy(copyable, `${copyable}.copy`);
      expect((await store.head(`${copyable}.copy`))?.bytes).toBe(2);
    });

    it('overwrites an existing key', async () => {
      await store.put(`${ns}/k`, Buffer.from('first version'));
      await store.put(`${ns}/k`, Buffer.from('second'));
      const got = await store.get(`${ns}/k`);
      expect(got.bytes).toBe(6);
      expect((await readAll(got.stream)).toString()).toBe('second');
    });

    it('reads byte ranges, inclusive, with the end clamped and the total size reported', async () => {
      const body = randomBytes(1000);
      await store.put(`${ns}/r`, body);
      const slice = async (start: number, end?: number) => {
        const got = await store.get(`${ns}/r`, { start, end });
        expect(got.bytes).toBe(1000);
        return readAll(got.stream);
      };
      expect((await slice(10, 19)).equals(body.subarray(10, 20))).toBe(true);
      expect((await slice(990)).equals(body.subarray(990))).toBe(true);
      expect((await slice(995, 5000)).equals(body.subarray(995))).toBe(true);
      // A single byte; not 0-0, which s3rver serves as the whole object (it tests `end` for truthiness).
      expect((await slice(7, 7)).equals(body.subarray(7, 8))).toBe(true);
      await expect(store.get(`${ns}/r`, { start: 1000 })).rejects.toBeInstanceOf(BlobRangeError);
      await expect(store.get(`${ns}/r`, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeError);
    });

    it('heads: size, modification time, and null when missing', async () => {
      await store.put(`${ns}/h`, Buffer.from('12345'), { contentType: 'text/plain' });
      const head = await store.head(`${ns}/h`);
      expect(head?.bytes).toBe(5);
      expect(head?.modified).toBeInstanceOf(Date);
      expect(Math.abs(head!.modified.getTime() - Date.now())).toBeLessThan(60_000);
      if (caps.storesContentType) expect(head?.contentType).toBe('text/plain');
      expect(await store.head(`${ns}/missing`)).toBeNull();
    });

    it.runIf(caps.storesContentType)('returns the content type on get', async () => {
      await store.put(`${ns}/img.png`, randomBytes(10), { contentType: 'image/png' });
      expect((await store.get(`${ns}/img.png`)).contentType).toBe('image/png');
    });

    it('throws BlobNotFoundError on get of a missing key, including a "folder"', async () => {
      await expect(store.get(`${ns}/missing`)).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.put(`${ns}/folder/file`, Buffer.from('x'));
      await expect(store.get(`${ns}/folder`)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.head(`${ns}/folder`)).toBeNull();
    });

    it('deletes, idempotently', async () => {
      await store.put(`${ns}/d`, Buffer.from('x'));
      await store.put(`${ns}/keep`, Buffer.from('y'));
      await store.delete(`${ns}/d`);
      expect(await store.head(`${ns}/d`)).toBeNull();
      await store.delete(`${ns}/d`);
      expect(await keysOf(store, `${ns}/`)).toEqual([`${ns}/keep`]);
    });

    it('lists by prefix with sizes', async () => {
      await store.put(`${ns}/a/1`, Buffer.alloc(1));
      await store.put(`${ns}/a/sub/2`, Buffer.alloc(2));
      await store.put(`${ns}/ab/3`, Buffer.alloc(3));
      await store.put(`${ns}/b/4`, Buffer.alloc(4));
      const entries = [];
      for await (const entry of store.list(`${ns}/a/`)) entries.push(entry);
      expect(entries.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
        { key: `${ns}/a/1`, bytes: 1 },
        { key: `${ns}/a/sub/2`, bytes: 2 },
      ]);
      expect(await keysOf(store, `${ns}/a`)).toEqual([`${ns}/a/1`, `${ns}/a/sub/2`, `${ns}/ab/3`]);
      expect(await keysOf(store, `${ns}/`)).toHaveLength(4);
      expect(await keysOf(store, `${ns}/nothing/`)).toEqual([]);
    });

    it('deletes by prefix, matching as a string prefix', async () => {
      for (const k of ['a/1', 'a/2', 'a/sub/3', 'ab/4', 'b/5']) await store.put(`${ns}/${k}`, Buffer.from(k));
      await store.deletePrefix(`${ns}/a/`);
      expect(await keysOf(store, `${ns}/`)).toEqual([`${ns}/ab/4`, `${ns}/b/5`]);
      await store.deletePrefix(`${ns}/a`);
      expect(await keysOf(store, `${ns}/`)).toEqual([`${ns}/b/5`]);
      await store.deletePrefix(`${ns}/nothing/`);
      await expect(store.deletePrefix('')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });

    it('copies, independently of later changes to the source', async () => {
      await store.put(`${ns}/src`, Buffer.from('original'), { contentType: 'text/plain' });
      await store.copy(`${ns}/src`, `${ns}/dst/copy`);
      await store.put(`${ns}/src`, Buffer.from('changed'));
      expect((await readAll((await store.get(`${ns}/dst/copy`)).stream)).toString()).toBe('original');
      if (caps.storesContentType) expect((await store.head(`${ns}/dst/copy`))?.contentType).toBe('text/plain');
      await expect(store.copy(`${ns}/missing`, `${ns}/x`)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.head(`${ns}/x`)).toBeNull();
    });

    it('stores nothing, and keeps the old version, when the body stream fails midway', async () => {
      await expect(store.put(`${ns}/new`, failingAfter(2 * 1024 * 1024))).rejects.toThrow('client went away');
      expect(await store.head(`${ns}/new`)).toBeNull();
      await store.put(`${ns}/old`, Buffer.from('intact'));
      await expect(store.put(`${ns}/old`, failingAfter(1024))).rejects.toThrow('client went away');
      expect((await readAll((await store.get(`${ns}/old`)).stream)).toString()).toBe('intact');
      expect(await keysOf(store, `${ns}/`)).toEqual([`${ns}/old`]);
    });

    it('stores nothing when the body does not match the declared length', async () => {
      await expect(store.put(`${ns}/short`, generated(100).stream, { contentLength: 101 })).rejects.toThrow(/declared/);
      await expect(store.put(`${ns}/long`, generated(100).stream, { contentLength: 99 })).rejects.toThrow(/declared/);
      await expect(store.put(`${ns}/buf`, Buffer.alloc(10), { contentLength: 9 })).rejects.toThrow(/declared/);
      expect(await keysOf(store, `${ns}/`)).toEqual([]);
    });

    it.each(['../x', '/abs', 'a//b', 'a/../b', './a', 'a/', '', 'a\\b', 'a\0b'])('rejects the key %j', async (key) => {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.head(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.copy(`${ns}/x`, key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });

    it('rejects prefixes that could escape', async () => {
      await expect(keysOf(store, '../')).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.deletePrefix('/etc/')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });

    it('exposes a local path only when blobs live on this disk', async () => {
      await store.put(`${ns}/p`, Buffer.from('on disk'));
      const local = store.localPath?.(`${ns}/p`) ?? null;
      if (store.kind === 'local') expect((await readFile(local!)).toString()).toBe('on disk');
      else expect(local).toBeNull();
    });
  });
}
