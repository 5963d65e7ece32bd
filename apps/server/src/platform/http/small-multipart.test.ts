import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { boundaryOf, readSmallMultipart, splitCanonicalMultipart, type SmallMultipartLimits } from './small-multipart.js';

const LIMITS: SmallMultipartLimits = { maxBytes: 1024 * 1024, fields: 10, files: 1, parts: 1000, fileSize: 20 * 1024 * 1024, fieldSize: 64 * 1024 };
const B = 'XyZ-boundary_123';
const file = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0x41, 0xff]); // NUL, CRLF and "--" inside the bytes

/** A body as undici's FormData (and Python requests, curl) writes it. */
function body(parts: string[], fileHead = `Content-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg`, end = `--${B}--\r\n`) {
  return Buffer.concat([...parts.map((p) => Buffer.from(`--${B}\r\n${p}\r\n`)), Buffer.from(`--${B}\r\n${fileHead}\r\n\r\n`), file, Buffer.from(`\r\n${end}`)]);
}
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

describe('splitCanonicalMultipart', () => {
  it('splits a canonical body into its fields and file, the file a view of the body', () => {
    const raw = body([field('imgsz', '224'), field('conf', '0.5')]);
    const parts = splitCanonicalMultipart(raw, B, LIMITS)!;
    expect(parts.map((p) => [p.name, p.filename, p.data.toString('latin1')])).toEqual([
      ['imgsz', undefined, '224'],
      ['conf', undefined, '0.5'],
      ['file', 'a.jpg', file.toString('latin1')],
    ]);
    expect(parts[2]!.data.buffer).toBe(raw.buffer);
    // No epilogue CRLF (curl), no file Content-Type (Python requests).
    expect(splitCanonicalMultipart(body([], `Content-Disposition: form-data; name="file"; filename="a.jpg"`, `--${B}--`), B, LIMITS)).toHaveLength(1);
  });

  it('reads what undici FormData sends', async () => {
    const form = new FormData();
    form.set('imgsz', '640');
    form.set('file', new Blob([file]), 'image.jpg');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const raw = Buffer.from(await req.arrayBuffer());
    const boundary = boundaryOf(req.headers.get('content-type') ?? undefined)!;
    const parts = splitCanonicalMultipart(raw, boundary, LIMITS)!;
    expect(parts.map((p) => p.name)).toEqual(['imgsz', 'file']);
    expect(Buffer.compare(parts[1]!.data, file)).toBe(0);
  });

  it('gives up (null, for busboy to answer) on anything but the canonical form', () => {
    const cases: Buffer[] = [
      Buffer.concat([Buffer.from('preamble\r\n'), body([])]),
      body([], undefined, `--${B}--\r\nepilogue`),
      body([], undefined, `--${B}`), // no closing delimiter
      body([field('a', 'x')]).subarray(0, 60), // truncated
      body([`Content-Disposition: form-data; name="a"\r\nContent-Type: application/json\r\n\r\n{"x":1}`]), // a typed field
      body([`Content-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\nMjI0`]),
      body([field('a', 'caf\u00e9')]), // non-ASCII value
      body([field('a', 'x\u0000y')]), // NUL in a value
      body([`Content-Disposition: form-data; name="a\u00e9"\r\n\r\nx`]), // non-ASCII header
      body([field('constructor', '1')]),
      body([field('__proto__', '1')]),
      body([field('n'.repeat(101), '1')]),
      body([`Content-Disposition: form-data; name=a\r\n\r\nx`]), // unquoted name
      body([`Content-Disposition: form-data; filename="b"; name="a"\r\n\r\nx`]),
      body([`Content-Disposition: form-data; name="a"; filename*=UTF-8''b\r\n\r\nx`]),
      body([], `Content-Disposition: form-data; name="file"; filename="../a.jpg"`),
      body([], `Content-Disposition: form-data; name="file"; filename=""`),
      body([`Content-Disposition: form-data; name="x"; filename="b.jpg"\r\n\r\nbytes`]), // two files
      body(Array.from({ length: 11 }, (_, i) => field(`f${i}`, '1'))), // eleven fields
      body([field('a', 'x'.repeat(64 * 1024 + 1))]),
    ];
    for (const [i, raw] of cases.entries()) expect(splitCanonicalMultipart(raw, B, LIMITS), `case ${i}`).toBeNull();
    expect(splitCanonicalMultipart(body([]), 'other', LIMITS)).toBeNull();
    expect(splitCanonicalMultipart(body([]), B, { ...LIMITS, fileSize: file.length })).toBeNull();
  });

  it('takes only a plain multipart/form-data boundary', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(boundaryOf(`multipart/form-data; boundary="${B}"`)).toBe(B);
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBeNull();
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary=x')).toBeNull();
    expect(boundaryOf('multipart/mixed; boundary=x')).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });
});

/** A request stream as the HTTP server hands it over: headers, then the body in chunks. */
function request(headers: Record<string, string>, chunks: Buffer[], opts: { abort?: boolean } = {}) {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  setImmediate(async () => {
    for (const c of chunks) {
      stream.write(c);
      await new Promise((r) => setImmediate(r));
    }
    if (opts.abort) stream.destroy();
    else stream.end();
  });
  return stream as unknown as IncomingMessage;
}
const read = async (stream: IncomingMessage) => {
  const got: Buffer[] = [];
  for await (const c of stream) got.push(c as Buffer);
  return Buffer.concat(got);
};

describe('readSmallMultipart', () => {
  const raw = body([field('imgsz', '224')]);
  const headers = { 'content-type': `multipart/form-data; boundary=${B}`, 'content-length': String(raw.length) };
  const chunks = [raw.subarray(0, 7), raw.subarray(7, 90), raw.subarray(90)];

  it('reads a body that arrives in chunks and lets the request end', async () => {
    const req = request(headers, chunks);
    const parts = (await readSmallMultipart(req, LIMITS))!;
    expect(parts.map((p) => p.name)).toEqual(['imgsz', 'file']);
    await new Promise((r) => req.once('end', r));
  });

  it('puts a body it does not take back at the front of the stream, byte for byte', async () => {
    const odd = Buffer.concat([Buffer.from('preamble\r\n'), raw]);
    const req = request({ ...headers, 'content-length': String(odd.length) }, [odd.subarray(0, 50), odd.subarray(50)]);
    expect(await readSmallMultipart(req, LIMITS)).toBeNull();
    expect(Buffer.compare(await read(req), odd)).toBe(0);
  });

  it('leaves large, unsized, chunked or encoded bodies to the stream reader without reading them', async () => {
    for (const h of [
      { ...headers, 'content-length': String(LIMITS.maxBytes + 1) },
      { 'content-type': headers['content-type'] },
      { ...headers, 'transfer-encoding': 'chunked' },
      { ...headers, 'content-encoding': 'gzip' },
      { ...headers, 'content-type': 'multipart/form-data; boundary="a b"' },
    ]) {
      const req = request(h, chunks);
      expect(await readSmallMultipart(req, LIMITS)).toBeNull();
      expect(Buffer.compare(await read(req), raw)).toBe(0);
    }
  });

  it('rejects as a premature close when the request breaks off', async () => {
    const req = request(headers, [raw.subarray(0, 40)], { abort: true });
    await expect(readSmallMultipart(req, LIMITS)).rejects.toMatchObject({ code: 'FST_MP_PREMATURE_CLOSE' });
  });
});
