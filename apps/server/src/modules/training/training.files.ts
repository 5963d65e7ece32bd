import { parseRange } from '../../platform/storage/blob-download.routes.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { BlobNotFoundError, BlobRangeError } from '../../platform/storage/blob-store.js';
import { storageRemaining } from '../storage/usage.service.js';

/**
 * Files handed to the ultralytics client. The client sends no auth header when it downloads
 * (hub-protocol §5.9, platform-protocol §5.3), so every URL carries its own signature in the query;
 * the path stays stable because the client names local files (and caches NDJSON conversions) by it.
 */

/** Seven days, like the hosted Platform's signed image URLs: a long training run still finds its data. */
export const CLIENT_URL_TTL_MS = 7 * 86_400_000;

function compatSignature(secret: string, path: string, exp: number): string {
  // A purpose tag of its own keeps these signatures from ever validating a /v1/blobs link or vice versa.
  return createHmac('sha256', secret).update(JSON.stringify(['sightline/compat/v1', path, exp])).digest('base64url');
}

/** Absolute, signed URL for a path served by one of the compat routes. */
export function signCompatUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, baseUrl: string, path: string, ttlMs = CLIENT_URL_TTL_MS): string {
  const exp = Math.floor((ctx.clock.now().getTime() + ttlMs) / 1000);
  return `${baseUrl.replace(/\/+$/, '')}${path}?exp=${exp}&sig=${compatSignature(ctx.secret, path, exp)}`;
}

export type CompatVerdict = 'ok' | 'expired' | 'invalid';

export function verifyCompatUrl(ctx: Pick<AppContext, 'secret' | 'clock'>, rawUrl: string): CompatVerdict {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  const exp = params.get('exp') ?? '';
  const sig = params.get('sig') ?? '';
  if (!/^\d{1,15}$/.test(exp)) return 'invalid';
  const expected = Buffer.from(compatSignature(ctx.secret, path, Number(exp)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return ctx.clock.now().getTime() >= Number(exp) * 1000 ? 'expired' : 'ok';
}

/** Throws the matching 403/410 when the request's URL is not a valid signed compat link. */
export function assertSignedRequest(ctx: Pick<AppContext, 'secret' | 'clock'>, request: FastifyRequest) {
  const verdict = verifyCompatUrl(ctx, request.url);
  if (verdict === 'invalid') throw errors.forbidden('This download link is invalid');
  if (verdict === 'expired') throw new AppError(410, 'error/expired', 'This download link has expired');
}

/** The origin the caller reached us by, used when PUBLIC_URL is not configured. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function baseUrlFor(ctx: AppContext, request: FastifyRequest): string {
  return ctx.baseUrl(requestOrigin(request));
}

/** Sends an in-memory body with HEAD, Range and Content-Length handled. */
export function sendBuffer(request: FastifyRequest, reply: FastifyReply, body: Buffer, contentType: string) {
  const range = parseRange(request.headers.range, body.length);
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('cache-control', 'private, no-store');
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${body.length}`).send();
  const slice = range ? body.subarray(range.start, range.end + 1) : body;
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${body.length}`);
  reply.header('content-length', slice.length);
  return reply.send(request.method === 'HEAD' ? undefined : slice);
}

/** Streams a blob with HEAD, Range and Content-Length handled (the dataset zip of the HUB protocol). */
export async function sendBlob(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, key: string, contentType: string) {
  const head = await ctx.blobs.head(key);
  if (!head) throw errors.notFound('File');
  const range = parseRange(request.headers.range, head.bytes);
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('cache-control', 'private');
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${head.bytes}`).send();
  reply.header('content-length', range ? range.end - range.start + 1 : head.bytes);
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${head.bytes}`);
  if (request.method === 'HEAD') return reply.send();
  try {
    const blob = await ctx.blobs.get(key, range);
    return reply.send(blob.stream);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw errors.notFound('File');
    if (err instanceof BlobRangeError) return reply.code(416).header('content-range', `bytes */${err.bytes}`).send();
    throw err;
  }
}

/**
 * Streams a client upload into the blob store without ever holding it in memory, and stops as soon
 * as it exceeds what the user's storage allows (InsufficientStorageError). `replacing` is the size of
 * the file this upload will replace: it is freed when the new one is promoted, so it counts as room.
 * The put is atomic (temp file + rename, or one S3 object), so an interrupted upload leaves the
 * previous blob untouched.
 */
export async function streamIntoStore(
  ctx: AppContext,
  user: { id: string; plan: string },
  key: string,
  body: Readable,
  opts: { declaredBytes?: number; replacing?: number; maxBytes?: number } = {},
): Promise<{ bytes: number }> {
  const { remaining } = await storageRemaining(ctx, user);
  const room = remaining + (opts.replacing ?? 0);
  const max = Math.min(room, opts.maxBytes ?? Number.MAX_SAFE_INTEGER);
  if (opts.declaredBytes !== undefined && opts.declaredBytes > room) {
    body.resume();
    throw errors.insufficientStorage(room, opts.declaredBytes);
  }
  let seen = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) return cb(seen > room ? errors.insufficientStorage(room, seen) : errors.payloadTooLarge());
      cb(null, chunk);
    },
  });
  // The store may attach its own pipeline only after an await (temp dir, S3 client): until then the
  // guard's error must not count as unhandled; the pipeline still sees the stream as errored.
  guard.on('error', () => undefined);
  // .pipe() does not pass a source's failure on: a client that disconnects mid-body must fail the put.
  const onError = (err: Error) => guard.destroy(err);
  const onClose = () => {
    if (!body.readableEnded) guard.destroy(new Error('The upload was interrupted'));
  };
  body.once('error', onError);
  body.once('close', onClose);
  try {
    const { bytes } = await ctx.blobs.put(key, body.pipe(guard), { contentType: 'application/octet-stream', contentLength: opts.declaredBytes });
    return { bytes };
  } catch (err) {
    body.unpipe(guard);
    body.resume();
    throw err;
  } finally {
    body.removeListener('error', onError);
    body.removeListener('close', onClose);
  }
}

