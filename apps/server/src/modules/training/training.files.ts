import { parseRange } from '../../platform/storage/blob-download.routes.js';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { BlobNotFoundError, BlobRangeError } from '../../platform/storage/blob-store.js';
import { MULTIPART_SLACK_BYTES, StreamReservation } from '../storage/reservations.service.js';

/**
 * Files handed to and received from the ultralytics client: in-memory and blob bodies with HEAD and
 * Range, and uploads streamed into storage within the owner's quota. The signed links themselves
 * are platform/http/signed-links.ts.
 */

/** @deprecated import it from platform/http/signed-links.ts (kept for modules that still import it from here) */
export { baseUrlFor } from '../../platform/http/signed-links.js';

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
 * Streams a client upload into the blob store without ever holding it in memory, within the user's
 * storage: the declared length (or, without one, each next step of the body) is reserved before the
 * bytes arrive (issue 16), so parallel uploads cannot together pass the quota, and the body stops as
 * soon as it exceeds what fits (InsufficientStorageError). `replacing` is the size of the file this
 * upload will replace: it is freed when the new one is promoted, so it counts as room. The put is
 * atomic (temp file + rename, or one S3 object), so an interrupted upload leaves the previous blob
 * untouched. With `settleLater` the caller ends the reservation (`settle`) once the file is
 * recorded; otherwise it ends here.
 */
export async function streamIntoStore(
  ctx: AppContext,
  user: { id: string; plan: string },
  key: string,
  body: Readable,
  opts: { declaredBytes?: number; replacing?: number; maxBytes?: number; settleLater?: boolean; /** the whole request's length when the file is one part of it (multipart) */ bodyBytes?: number } = {},
): Promise<{ bytes: number; settle: () => Promise<void> }> {
  const max = opts.maxBytes ?? Number.MAX_SAFE_INTEGER;
  if (opts.declaredBytes !== undefined && opts.declaredBytes > max) {
    body.resume();
    throw errors.payloadTooLarge();
  }
  const reservation = new StreamReservation(ctx, user, 'training-upload', {
    expectedBytes: opts.declaredBytes ?? opts.bodyBytes,
    slack: opts.declaredBytes === undefined ? MULTIPART_SLACK_BYTES : 0,
    credit: opts.replacing ?? 0,
    maxBytes: max,
  });
  try {
    await reservation.start();
  } catch (err) {
    body.resume();
    throw err;
  }
  let seen = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) return cb(errors.payloadTooLarge());
      if (seen <= reservation.held) return cb(null, chunk);
      reservation.cover(seen).then(
        () => cb(null, chunk),
        (err: Error) => cb(err),
      );
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
  const settle = () => reservation.release();
  try {
    const { bytes } = await ctx.blobs.put(key, body.pipe(guard), { contentType: 'application/octet-stream', contentLength: opts.declaredBytes });
    if (!opts.settleLater) await settle();
    return { bytes, settle };
  } catch (err) {
    body.unpipe(guard);
    body.resume();
    await settle().catch(() => undefined);
    throw err;
  } finally {
    body.removeListener('error', onError);
    body.removeListener('close', onClose);
  }
}
