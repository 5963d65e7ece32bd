import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBlobStore } from './blob-store.contract.js';
import { createBlobStore } from './index.js';
import { S3BlobStore, type S3BlobStoreConfig } from './s3-blob-store.js';

/**
 * s3rver runs in a child process because its ListObjectsV2 continuation tokens use single DES, which
 * OpenSSL 3 (Node >= 17) only offers behind --openssl-legacy-provider; in-process, paging past 1000 keys fails.
 * The child exits when its stdin closes, so it cannot outlive a crashed test worker.
 */
const S3RVER_MAIN = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: '127.0.0.1', port: 0, directory: process.argv[2], silent: true });
server.run().then(({ port }) => process.stdout.write(port + '\\n'));
process.stdin.on('end', () => server.close(() => process.exit(0))).resume();
`;

let child: ChildProcess;
let dir: string;
let config: S3BlobStoreConfig;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sightline-s3rver-'));
  const s3rverPath = createRequire(import.meta.url).resolve('s3rver');
  child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', S3RVER_MAIN, s3rverPath, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
  if (!chunk) throw new Error('s3rver exited before listening');
  config = {
    endpoint: `http://127.0.0.1:${Number(chunk.toString())}`,
    bucket: 'sightline-test',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = once(child, 'exit');
    child.stdin!.end();
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

// init() creates the bucket, so the contract also covers bucket creation.
describeBlobStore('S3BlobStore', async () => new S3BlobStore(config), { storesContentType: true });

describe('S3BlobStore against s3rver', () => {
  it('createBlobStore picks S3 when it is configured (the SDK is imported then) and local files otherwise', async () => {
    const s3 = await createBlobStore({ s3: { ...config, bucket: 'sightline-factory' }, dataDir: dir });
    expect(s3).toBeInstanceOf(S3BlobStore);
    await s3.init();
    await s3.put('f', Buffer.from('made'));
    expect((await s3.head('f'))?.bytes).toBe(4);
    expect((await createBlobStore({ s3: null, dataDir: dir })).kind).toBe('local');
  });

  it('init is idempotent once the bucket exists', async () => {
    const store = new S3BlobStore({ ...config, bucket: 'sightline-init' });
    await store.init();
    await store.init();
    await store.put('k', Buffer.from('v'));
    expect((await store.head('k'))?.bytes).toBe(1);
  });

  it('pages through listings and deletes larger than one page', async () => {
    const store = new S3BlobStore({ ...config, bucket: 'sightline-paging' });
    await store.init();
    const count = 1005; // ListObjectsV2 and DeleteObjects both stop at 1000
    for (let i = 0; i < count; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => store.put(`many/${i + j}`, Buffer.from('x'))));
    }
    let listed = 0;
    for await (const entry of store.list('many/')) listed += entry.bytes;
    expect(listed).toBe(count);
    await store.deletePrefix('many/');
    const left = await store.client.send(new ListObjectsV2Command({ Bucket: 'sightline-paging' }));
    expect(left.KeyCount ?? 0).toBe(0);
  });
});
