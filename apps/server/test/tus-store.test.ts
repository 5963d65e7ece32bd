import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTusStore } from '../src/platform/uploads/blob-tus-store.js';
import { createTestApp, createTestCluster, FIXTURES, type ClusterNode, type TestCluster } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { startS3rver } from './support/s3rver.js';
/**
 * The tus FileStore used to create its folder with an fs.mkdir whose error it threw from the callback:
 * when the data folder went away right after the first upload request (a quick test teardown, a wiped
 * volume), the process died of an uncaught exception. The folder is now made once, synchronously, at
 * registration; vitest fails this file on any uncaught exception.
 */
// Three fresh servers in turn: a few seconds each on a loaded 2-core runner, hence the longer limit.
it('the data folder removed right after a first tus request takes nothing down', { timeout: 120_000 }, async () => {
  for (let i = 0; i < 3; i++) {
    const t = await createTestApp();
    const u = await buildUser(t.app);
    const r = await t.app.inject({ method: 'OPTIONS', url: '/v1/uploads/tus', headers: { cookie: u.cookie, 'tus-resumable': '1.0.0' } });
    expect(r.statusCode).toBeLessThan(300);
    fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    await t.close();
  }
  // Long enough for a pending fs.mkdir callback to have run (and thrown, before the fix).
  await new Promise((r) => setTimeout(r, 500));
});

/**
 * ADR 0025: with a shared blob store (S3) a resumable upload lives there, so its chunks may reach
 * any instance, as they do behind a round-robin proxy. Before, the upload lived in the first
 * instance's data folder and the first PATCH that reached the other answered 404.
 */
describe('resumable uploads across instances on a shared blob store', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let cluster: TestCluster;
  beforeAll(async () => {
    s3 = await startS3rver();
    cluster = await createTestCluster(2, s3.env);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await s3?.stop();
  });

  it('takes chunks alternately on both instances and the dataset gets the whole archive', { timeout: 60_000 }, async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const data = async (res: Response) => ((await res.json()) as { data: { id: string; token: string; storage: { path: string; bytes: number } } }).data;
    const call = (node: ClusterNode, method: string, url: string, headers: Record<string, string>, body?: Buffer | string) =>
      fetch(`${node.url}${url}`, { method, headers, body });
    const u = await buildUser(a.app);
    const json = { cookie: u.cookie, 'content-type': 'application/json' };
    const d = await data(await call(a, 'POST', '/v1/datasets', json, JSON.stringify({ meta: { name: 'Shapes' }, task: 'detect' })));
    const zip = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
    const key = `users/${u.user.id}/datasets/${d.id}/shapes3.zip`;
    const tok = (await data(await call(b, 'POST', '/v1/uploads/token', json, JSON.stringify({ path: key, bytes: zip.length })))).token;
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const tus = { cookie: u.cookie, 'tus-resumable': '1.0.0' };
    const create = await call(a, 'POST', '/v1/uploads/tus', {
      ...tus,
      'upload-length': String(zip.length),
      'upload-metadata': `token ${b64(tok)},filename ${b64('shapes3.zip')}`,
    });
    expect(create.status).toBe(201);
    const url = new URL(create.headers.get('location')!, a.url).pathname;
    const chunk = Math.ceil(zip.length / 5);
    const statuses: number[] = [];
    for (let i = 0, offset = 0; offset < zip.length; i++) {
      const node = i % 2 === 0 ? b : a; // B first: the instance that did not create the upload
      const head = await call(node, 'HEAD', url, tus);
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('upload-offset'))).toBe(offset);
      const res = await call(
        node,
        'PATCH',
        url,
        { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        zip.subarray(offset, offset + chunk),
      );
      statuses.push(res.status);
      if (res.status !== 204) break;
      offset = Number(res.headers.get('upload-offset'));
    }
    expect(statuses).toEqual([204, 204, 204, 204, 204]);
    // The archive is whole in the bucket, and the upload's chunks are gone.
    expect(s3.keys()).toContain(key);
    expect(s3.keys().filter((k) => k.startsWith('uploads/tus/'))).toEqual([]);
    const stored = await a.app.ctx.blobs.get(key);
    const parts: Buffer[] = [];
    for await (const p of stored.stream) parts.push(p as Buffer);
    expect(Buffer.concat(parts).equals(zip)).toBe(true);
    const row = await data(await call(b, 'GET', `/v1/datasets/${d.id}`, { cookie: u.cookie }));
    expect(row.storage).toMatchObject({ path: key, bytes: zip.length });
  });

  it('deletes an abandoned upload from the shared store once it expired', async () => {
    const [a] = cluster.nodes as [ClusterNode, ClusterNode];
    const store = new BlobTusStore(a.app.ctx.blobs, { expirationMs: 1, tmpDir: path.join(a.config.dataDir, 'spool-test') });
    await store.create(new Upload({ id: 'abandoned1', size: 10, offset: 0, creation_date: new Date(Date.now() - 1000).toISOString() }));
    await store.write(Readable.from([Buffer.from('12345')]), 'abandoned1', 0);
    expect((await store.getUpload('abandoned1')).offset).toBe(5);
    expect(await store.deleteExpired()).toBe(1);
    expect(s3.keys().filter((k) => k.includes('abandoned1'))).toEqual([]);
    await expect(store.getUpload('abandoned1')).rejects.toMatchObject({ status_code: 404 });
  });
});
