import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobDownloadRoutes } from '../http/blob-download.routes.js';
import { LocalBlobStore } from './local-blob-store.js';
import { signBlobUrl, verifyBlobUrl } from './signed-url.js';

const secret = 'test-secret-that-is-long-enough-0123456789';
const t0 = new Date('2030-01-01T00:00:00Z');
const inAnHour = new Date(t0.getTime() + 3_600_000);

function parts(url: string) {
  const u = new URL(url);
  return { path: u.pathname + u.search, exp: u.searchParams.get('exp')!, sig: u.searchParams.get('sig')!, name: u.searchParams.get('name') ?? undefined };
}

describe('signBlobUrl / verifyBlobUrl', () => {
  const url = signBlobUrl({ key: 'users/u1/datasets/d1/a b.zip', expiresAt: inAnHour, filename: 'coco8.zip', secret, baseUrl: 'https://hub.test/' });
  const p = parts(url);
  const verify = (over: Partial<Parameters<typeof verifyBlobUrl>[0]> = {}) =>
    verifyBlobUrl({ key: 'users/u1/datasets/d1/a b.zip', exp: p.exp, sig: p.sig, name: p.name, secret, now: t0, ...over });

  it('produces the documented shape', () => {
    expect(url).toMatch(/^https:\/\/hub\.test\/v1\/blobs\/users\/u1\/datasets\/d1\/a%20b\.zip\?exp=\d+&sig=[\w-]{43}&name=coco8\.zip$/);
    expect(Number(p.exp)).toBe(inAnHour.getTime() / 1000);
  });

  it('accepts the signed values until they expire', () => {
    expect(verify()).toBe('ok');
    expect(verify({ now: new Date(inAnHour.getTime() - 1) })).toBe('ok');
    expect(verify({ now: inAnHour })).toBe('expired');
  });

  it('rejects any change to key, expiry, name, signature or secret', () => {
    expect(verify({ key: 'users/u2/datasets/d1/a b.zip' })).toBe('invalid');
    expect(verify({ exp: String(Number(p.exp) + 3600) })).toBe('invalid');
    expect(verify({ name: 'other.zip' })).toBe('invalid');
    expect(verify({ name: undefined })).toBe('invalid');
    expect(verify({ sig: p.sig.slice(0, -1) })).toBe('invalid');
    expect(verify({ sig: `${p.sig[0] === 'A' ? 'B' : 'A'}${p.sig.slice(1)}` })).toBe('invalid');
    expect(verify({ secret: `${secret}x` })).toBe('invalid');
    expect(verify({ exp: '1e12' })).toBe('invalid');
  });

  it('reports a forged link as invalid even once its claimed expiry has passed', () => {
    expect(verify({ sig: 'x'.repeat(43), now: new Date(inAnHour.getTime() + 1) })).toBe('invalid');
  });
});

describe('GET/HEAD /v1/blobs/*', () => {
  let app: FastifyInstance;
  let tmp: string;
  let now = t0;
  const body = randomBytes(1000);
  const key = 'users/u1/datasets/d1/ünï cødé.bin';
  const sign = (k = key, filename?: string) => parts(signBlobUrl({ key: k, expiresAt: inAnHour, filename, secret, baseUrl: 'http://localhost' })).path;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'sightline-signed-'));
    const store = new LocalBlobStore(tmp);
    await store.init();
    await store.put(key, body);
    app = Fastify();
    await app.register(blobDownloadRoutes, { store, secret, now: () => now });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('serves the whole blob with its headers', async () => {
    const res = await app.inject({ method: 'GET', url: sign(key, 'résumé "final".bin') });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(body)).toBe(true);
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(res.headers['last-modified'] as string).getTime()).not.toBeNaN();
    expect(res.headers['content-disposition']).toBe(`attachment; filename="r_sum_ _final_.bin"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.bin`);
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await app.inject({ method: 'GET', url: sign() });
    const res = await app.inject({ method: 'GET', url: sign(), headers: { 'if-none-match': first.headers.etag as string } });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
  });

  it.each([
    ['bytes=10-19', 10, 19],
    ['bytes=990-', 990, 999],
    ['bytes=-5', 995, 999],
    ['bytes=995-5000', 995, 999],
  ])('serves %s as 206 with the exact slice', async (range, start, end) => {
    const res = await app.inject({ method: 'GET', url: sign(), headers: { range } });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(body.subarray(start, end + 1))).toBe(true);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
  });

  it('answers 416 for a range past the end', async () => {
    const res = await app.inject({ method: 'GET', url: sign(), headers: { range: 'bytes=1000-' } });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */1000');
  });

  it('serves the whole blob for multi-range requests and for a stale If-Range', async () => {
    const multi = await app.inject({ method: 'GET', url: sign(), headers: { range: 'bytes=0-1,5-6' } });
    expect(multi.statusCode).toBe(200);
    const stale = await app.inject({ method: 'GET', url: sign(), headers: { range: 'bytes=0-1', 'if-range': '"old"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(1000);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: sign() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.length).toBe(0);
  });

  it('refuses a tampered signature with 403', async () => {
    const url = sign();
    const tampered = url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(url);
    const res = await app.inject({ method: 'GET', url: tampered });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'error/forbidden', message: expect.any(String) } });
  });

  it('refuses a link signed for another key, and one without a signature', async () => {
    const forU2 = sign('users/u2/secret.bin');
    const swapped = sign().split('?')[0] + forU2.slice(forU2.indexOf('?'));
    expect((await app.inject({ method: 'GET', url: swapped })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: sign().split('?')[0] })).statusCode).toBe(403);
  });

  it('answers 410 once the link has expired', async () => {
    const url = sign();
    now = new Date(inAnHour.getTime() + 1000);
    try {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ error: { code: 'error/expired' } });
    } finally {
      now = t0;
    }
  });

  it('answers 404 for a validly signed link to a missing blob', async () => {
    const res = await app.inject({ method: 'GET', url: sign('users/u1/gone.bin') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'error/not-found' } });
  });
});
