import zlib from 'node:zlib';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { datasets } from '../../src/platform/db/schema.js';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, FIXTURES, type TestApp } from './harness.js';
import { buildUser } from './factories.js';

/**
 * Real-HTTP plumbing for the conformance tests: the server listens on loopback like in production,
 * and requests go out through node:http or a raw socket, so every byte the ultralytics client would
 * send crosses a real HTTP parser.
 */

export const TRACES = path.resolve(import.meta.dirname, '../../../../../shared/reference/traces');

export function loadTrace<T = Record<string, unknown>>(file: string): T[] {
  return fs
    .readFileSync(path.join(TRACES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export interface LiveServer {
  t: TestApp;
  origin: string;
  port: number;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** The app on a real port, with PUBLIC_URL pointing at it so signed URLs it hands out are reachable. */
export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: origin, ...env });
  await t.app.listen({ port, host: '127.0.0.1', backlog: 1024 });
  return { t, origin, port, close: () => t.close() };
}

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json<T = any>(): T;
}

/** One request on a fresh connection (the real clients opened a new TCP connection per request). */
export function send(
  url: string,
  opts: { method?: string; headers?: Array<[string, string]> | Record<string, string>; body?: Buffer | string } = {},
): Promise<WireResponse> {
  const u = new URL(url);
  const headers: Record<string, string> = {};
  const list = Array.isArray(opts.headers) ? opts.headers : Object.entries(opts.headers ?? {});
  for (const [k, v] of list) {
    // Host and Content-Length are the wire's business: recomputed for this server and this body.
    if (/^(host|content-length)$/i.test(k)) continue;
    headers[k] = v;
  }
  const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
  if (body) headers['Content-Length'] = String(body.length);
  else if (opts.method && opts.method !== 'GET' && opts.method !== 'HEAD') headers['Content-Length'] = '0';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // Decoded as python-requests does: the client sends Accept-Encoding: gzip, deflate, br.
        const raw = Buffer.concat(chunks);
        const encoding = String(res.headers['content-encoding'] ?? '');
        const buf =
          encoding === 'gzip'
            ? zlib.gunzipSync(raw)
            : encoding === 'br'
              ? zlib.brotliDecompressSync(raw)
              : encoding === 'deflate'
                ? zlib.inflateSync(raw)
                : raw;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: buf,
          json: () => JSON.parse(buf.toString('utf8')),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** multipart/form-data exactly as python-requests builds it (hub-sdk uploads, traces README). */
export function requestsMultipart(fields: Array<[string, string]>, file: { name: string; content: Buffer }) {
  const boundary = randomBytes(16).toString('hex');
  const parts: Buffer[] = [];
  for (const [k, v] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.name}"\r\n\r\n`),
    file.content,
    Buffer.from('\r\n'),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends a raw HTTP request over a plain socket (no client library fixing it up) and returns the
 * status line's code and the body. `abortAfter` closes the socket after that many body bytes.
 */
export function rawRequest(
  port: number,
  head: string,
  body: Buffer | Buffer[] = Buffer.alloc(0),
  opts: { abortAfter?: number } = {},
): Promise<{ status: number; raw: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => {
      chunks.push(c);
      // A keep-alive server leaves the socket open: stop once the whole response is in.
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      const length = end < 0 ? null : /\r\ncontent-length: *(\d+)/i.exec(raw.subarray(0, end).toString('latin1'));
      if (length && raw.length >= end + 4 + Number(length[1])) socket.end();
    });
    socket.on('error', (err) => (opts.abortAfter !== undefined ? resolve({ status: 0, raw: '', body: '' }) : reject(err)));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      resolve({ status, raw, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('connect', () => {
      socket.write(head);
      const bodies = Array.isArray(body) ? body : [body];
      let sent = 0;
      for (const b of bodies) {
        if (opts.abortAfter !== undefined && sent + b.length > opts.abortAfter) {
          socket.write(b.subarray(0, opts.abortAfter - sent));
          setTimeout(() => socket.destroy(), 50);
          return;
        }
        socket.write(b);
        sent += b.length;
      }
    });
  });
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Deterministic bytes of a given size that look like a PyTorch zip (magic PK\3\4). */
export function fakeWeights(size: number, seed: string): Buffer {
  // AES-CTR keystream: deterministic per seed, incompressible, and fast enough for 18 MB checkpoints.
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const out = Buffer.concat([cipher.update(Buffer.alloc(size)), cipher.final()]);
  Buffer.from([0x50, 0x4b, 0x03, 0x04]).copy(out, 0);
  return out;
}

/** A signed-up user with a fresh API key in both spellings. */
export async function userWithKey(t: TestApp, username?: string) {
  const u = await buildUser(t.app, username ? { username } : {});
  const res = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: { cookie: u.cookie }, payload: { name: 'trainer' } });
  if (res.statusCode !== 201) throw new Error(`api key: ${res.statusCode} ${res.body}`);
  const data = res.json().data as { id: string; key: string; legacyKey: string };
  return { ...u, keyId: data.id, key: data.key, legacyKey: data.legacyKey };
}

/** A dataset with the shapes3 archive as its upload, processed by the real dataset job. */
export async function shapes3Dataset(t: TestApp, userId: string, slug = 'shapes3') {
  const id = newId();
  const storageKey = `users/${userId}/datasets/${id}/shapes3.zip`;
  const content = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
  await t.app.ctx.blobs.put(storageKey, content);
  const now = t.clock.now();
  await t.database.db.insert(datasets).values({
    id,
    userId,
    slug,
    name: slug,
    task: 'detect',
    status: 'Loading',
    storageKey,
    filename: 'shapes3.zip',
    bytes: content.length,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
  });
  await t.app.ctx.jobs.enqueue('dataset.process', { datasetId: id }, { dedupeKey: `dataset:${id}` });
  await t.app.ctx.jobs.drain();
  return { id, slug, storageKey, content };
}
