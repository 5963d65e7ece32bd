import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBlobStore } from './blob-store.contract.js';
import { InvalidBlobKeyError } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'sightline-blobs-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describeBlobStore('LocalBlobStore', async () => new LocalBlobStore(path.join(tmp, 'contract')), { storesContentType: false });

describe('LocalBlobStore on disk', () => {
  let store: LocalBlobStore;
  let root: string;
  beforeAll(async () => {
    root = path.join(tmp, 'disk', 'blobs');
    store = new LocalBlobStore(root);
    await store.init();
  });

  it('leaves neither the key nor a temp file behind when the stream errors midway', async () => {
    const body = Readable.from(
      (async function* () {
        yield Buffer.alloc(1024 * 1024, 1);
        throw new Error('boom');
      })(),
    );
    await expect(store.put('users/u1/datasets/d1/x.zip', body)).rejects.toThrow('boom');
    expect(existsSync(path.join(root, 'users/u1/datasets/d1/x.zip'))).toBe(false);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('keeps blobs inside the root and reserves the temp directory', async () => {
    await expect(store.put('../escaped', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(existsSync(path.join(root, '..', 'escaped'))).toBe(false);
    await expect(store.put('.tmp/x', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(store.localPath('users/u1/f.txt')).toBe(path.join(root, 'users', 'u1', 'f.txt'));
  });

  it('prunes directories emptied by deletes', async () => {
    await store.put('users/u2/datasets/d1/a', Buffer.from('a'));
    await store.put('users/u2/models/m1/b', Buffer.from('b'));
    await store.delete('users/u2/datasets/d1/a');
    expect(existsSync(path.join(root, 'users/u2/datasets'))).toBe(false);
    await store.deletePrefix('users/u2/models/');
    expect(existsSync(path.join(root, 'users/u2'))).toBe(false);
    expect(existsSync(path.join(root, '.tmp'))).toBe(true);
  });

  it('hides temp files from listings and sweeps stale ones on init', async () => {
    const fresh = path.join(root, '.tmp', 'fresh');
    const stale = path.join(root, '.tmp', 'stale');
    await writeFile(fresh, 'x');
    await writeFile(stale, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    const keys: string[] = [];
    for await (const { key } of store.list('')) keys.push(key);
    expect(keys.filter((k) => k.startsWith('.tmp'))).toEqual([]);
    await store.init();
    expect(await readdir(path.join(root, '.tmp'))).toEqual(['fresh']);
    await rm(fresh);
  });
});
