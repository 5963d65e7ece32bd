import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { uploads } from '../src/platform/db/schema.js';
import { buildZip, makeImage } from '../src/modules/datasets/processing/test-archives.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

// ADR 0029 over HTTP: pairs left out never fail a dataset that still has images to train on, and a
// classification archive needs no manual task change.
const FIXTURES = path.resolve(import.meta.dirname, '../../../e2e/fixtures');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'bad-lines.expected.json'), 'utf8')) as {
  dropped: string[];
  pairs: { image: string; verdict: string }[];
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const req = (method: 'GET' | 'POST', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as never });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function uploadAndProcess(u: { cookie: string; user: { id: string } }, task: string, filename: string, bytes: Buffer) {
  const d = (await req('POST', '/v1/datasets', u.cookie, { meta: { name: filename }, task })).json().data;
  const token = (await req('POST', '/v1/uploads/token', u.cookie, { path: `users/${u.user.id}/datasets/${d.id}/${filename}`, bytes: bytes.length })).json().data
    .token;
  const create = await t.app.inject({
    method: 'POST',
    url: '/v1/uploads/tus',
    headers: {
      cookie: u.cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `token ${b64(token)},filename ${b64(filename)}`,
    },
  });
  const url = new URL(create.headers.location as string, 'http://x').pathname;
  const patch = await t.app.inject({
    method: 'PATCH',
    url,
    headers: { cookie: u.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: bytes,
  });
  expect(patch.statusCode).toBe(204);
  expect((await req('POST', `/v1/datasets/${d.id}/process`, u.cookie)).statusCode).toBe(202);
  await t.app.ctx.jobs.drain();
  return (await req('GET', `/v1/datasets/${d.id}`, u.cookie)).json().data;
}

describe('dataset rules over HTTP (ADR 0029)', () => {
  it('the bad-lines zip becomes Ready with exactly the pairs the real verify_image_label drops left out', async () => {
    const u = await buildUser(t.app);
    const ready = await uploadAndProcess(u, 'detect', 'bad-lines.zip', fs.readFileSync(path.join(FIXTURES, 'bad-lines.zip')));
    expect(ready.status).toBe('Ready');
    expect(ready.error).toBeNull();
    const report = (await req('GET', `/v1/datasets/${ready.id}/report`, u.cookie)).json().data;
    expect(report.leftOut.map((e: { image: string }) => e.image).sort()).toEqual([...expected.dropped].sort());
    expect(report.leftOutCount).toBe(expected.dropped.length);
    expect(report.errorCount).toBe(0);
    const images = (await req('GET', `/v1/datasets/${ready.id}/images?limit=100`, u.cookie)).json().data;
    expect(images.total).toBe(expected.pairs.length - expected.dropped.length);
    const txt = await req('GET', `/v1/datasets/${ready.id}/report?format=txt`, u.cookie);
    expect(txt.body).toContain(`${expected.dropped.length} images left out`);
  });

  it('a classification zip uploaded to a detect dataset is processed as classify, with a warning saying so', async () => {
    const u = await buildUser(t.app);
    const img = await makeImage('jpeg', 32, 32);
    const zip = buildZip(['train/cat/1.jpg', 'train/dog/2.jpg', 'val/cat/3.jpg', 'val/dog/4.jpg'].map((name) => ({ name: `pets/${name}`, data: img })));
    const ready = await uploadAndProcess(u, 'detect', 'pets.zip', zip);
    expect(ready).toMatchObject({ status: 'Ready', task: 'classify' });
    const report = (await req('GET', `/v1/datasets/${ready.id}/report`, u.cookie)).json().data;
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'dataset/task-picked' }));
  });

  it('/active-jobs shows the bytes the store holds, as the dataset page does, even when the database heard less', async () => {
    const u = await buildUser(t.app);
    const d = (await req('POST', '/v1/datasets', u.cookie, { meta: { name: 'cut' }, task: 'detect' })).json().data;
    const bytes = Buffer.alloc(300_000, 7);
    const token = (await req('POST', '/v1/uploads/token', u.cookie, { path: `users/${u.user.id}/datasets/${d.id}/cut.zip`, bytes: bytes.length })).json().data
      .token;
    const create = await t.app.inject({
      method: 'POST',
      url: '/v1/uploads/tus',
      headers: {
        cookie: u.cookie,
        'tus-resumable': '1.0.0',
        'upload-length': String(bytes.length),
        'upload-metadata': `token ${b64(token)},filename ${b64('cut.zip')}`,
      },
    });
    const url = new URL(create.headers.location as string, 'http://x').pathname;
    const patch = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { cookie: u.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: bytes.subarray(0, 120_000),
    });
    expect(patch.statusCode).toBe(204);
    // As when the request was cut off before the database was told: it lags behind the store.
    const id = url.split('/').pop()!;
    await t.database.db.update(uploads).set({ offset: 0 }).where(eq(uploads.id, id));
    const head = await t.app.inject({ method: 'HEAD', url, headers: { cookie: u.cookie, 'tus-resumable': '1.0.0' } });
    const jobs = (await req('GET', '/v1/active-jobs', u.cookie)).json().data;
    const upload = jobs.uploads.find((x: { datasetId: string }) => x.datasetId === d.id);
    expect(upload).toMatchObject({ offset: 120_000, bytes: 300_000, status: 'uploading' });
    expect(Number(head.headers['upload-offset'])).toBe(upload.offset);
    expect(upload.updated).toEqual(expect.any(String));
  });
});
