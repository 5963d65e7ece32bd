import { ErrorCode } from '@sightline/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';
import { assertBlobKey, BlobNotFoundError, BlobRangeError, type BlobObject, type BlobStore } from '../storage/blob-store.js';
import { BLOB_ROUTE_PREFIX, verifyBlobUrl } from '../storage/signed-url.js';

export interface BlobDownloadOptions {
  store: BlobStore;
  secret: string;
  now?: () => Date;
  /**
   * Re-checks a signed link against the current state of the item its blob belongs to (ADR 0014):
   * `access` is the access version the link carries (null when none). 'gone' answers 404,
   * 'changed' 403. Given by the app (platform imports no module); without it every genuine link is served.
   */
  checkAccess?: (key: string, access: string | null) => Promise<'ok' | 'gone' | 'changed'>;
}

type ByteRange = { start: number; end: number };

/** Reads the key from the raw URL so decoding is exactly the inverse of `blobUrlPath`, whatever the router does. */
function keyFromUrl(url: string): string | null {
  const pathname = url.split('?', 1)[0];
  const at = pathname.indexOf(BLOB_ROUTE_PREFIX);
  if (at < 0) return null;
  try {
    const key = pathname
      .slice(at + BLOB_ROUTE_PREFIX.length)
      .split('/')
      .map(decodeURIComponent)
      .join('/');
    assertBlobKey(key);
    return key;
  } catch {
    return null;
  }
}

/** Only a single `bytes=` range is honoured (what curl -C and urllib send); anything else is served whole, which RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Serves local blobs behind HMAC-signed, expiring links produced by `signBlobUrl`. Register without a prefix. */
export async function blobDownloadRoutes(app: FastifyInstance, opts: BlobDownloadOptions): Promise<void> {
  const now = opts.now ?? (() => new Date());

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const fail = (status: number, code: string, message: string) => reply.code(status).send(errorBody(code, message, request.id));
    const { exp, sig, name, a } = request.query as Record<string, unknown>;
    const key = keyFromUrl(request.url);
    if (
      key === null ||
      typeof exp !== 'string' ||
      typeof sig !== 'string' ||
      (name !== undefined && typeof name !== 'string') ||
      (a !== undefined && typeof a !== 'string')
    ) {
      return fail(403, ErrorCode.Forbidden, 'This download link is invalid');
    }
    const verdict = verifyBlobUrl({ key, exp, sig, name, access: a, secret: opts.secret, now: now() });
    if (verdict === 'invalid') return fail(403, ErrorCode.Forbidden, 'This download link is invalid');
    if (verdict === 'expired') return fail(410, ErrorCode.Expired, 'This download link has expired');
    const access = opts.checkAccess ? await opts.checkAccess(key, a ?? null) : 'ok';
    if (access === 'gone') return fail(404, ErrorCode.NotFound, 'File not found');
    if (access === 'changed') return fail(403, ErrorCode.Forbidden, 'This link no longer grants access: ask for a new one');

    const head = await opts.store.head(key);
    if (!head) return fail(404, ErrorCode.NotFound, 'File not found');
    const etag = `"${head.bytes.toString(16)}-${head.modified.getTime().toString(16)}"`;
    const lastModified = head.modified.toUTCString();
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('etag', etag).send();

    // A stale If-Range means the client's partial copy is of another version, so it gets the whole blob.
    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== etag && ifRange !== lastModified ? undefined : parseRange(request.headers.range, head.bytes);
    if (range === 'unsatisfiable') {
      return reply
        .header('content-range', `bytes */${head.bytes}`)
        .code(416)
        .send(errorBody(ErrorCode.Validation, 'Range not satisfiable', request.id));
    }

    let blob: BlobObject | null = null;
    if (request.method === 'GET') {
      try {
        blob = await opts.store.get(key, range);
      } catch (err) {
        // The blob changed between head and get.
        if (err instanceof BlobNotFoundError) return fail(404, ErrorCode.NotFound, 'File not found');
        if (err instanceof BlobRangeError) return fail(416, ErrorCode.Validation, 'Range not satisfiable');
        throw err;
      }
    }

    reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', lastModified)
      .header('content-type', head.contentType ?? 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private')
      .header('content-length', range ? range.end - range.start + 1 : head.bytes);
    if (typeof name === 'string' && name) reply.header('content-disposition', contentDisposition(name));
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${head.bytes}`);
    return reply.send(blob?.stream);
  }

  // Signed URLs are credentials: keep them out of the info-level request log.
  app.route({ method: ['GET', 'HEAD'], url: `${BLOB_ROUTE_PREFIX}*`, logLevel: 'warn', handler });
}
