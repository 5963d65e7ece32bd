import { Transform, type Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { MULTIPART_SLACK_BYTES, StreamReservation } from '../storage/reservations.service.js';

/**
 * Uploads from the ultralytics client (and an agent's artifacts) streamed into storage within the
 * owner's quota. Sending files back is platform/http/send-blob.ts; the signed links themselves are
 * platform/http/signed-links.ts.
 */

/**
 * Streams a client upload into the blob store without ever holding it in memory, within the user's
 * storage: the declared length (or, without one, each next step of the body) is reserved before the
 * bytes arrive (ADR 0014), so parallel uploads cannot together pass the quota, and the body stops as
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
  opts: {
    declaredBytes?: number;
    replacing?: number;
    maxBytes?: number;
    settleLater?: boolean;
    /** the whole request's length when the file is one part of it (multipart) */ bodyBytes?: number;
  } = {},
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
  // A body that failed or closed before these listeners (the client gave up while the quota was
  // checked) fails the put too, instead of leaving it waiting for bytes that will never come.
  if (body.errored) onError(body.errored);
  else if (body.destroyed) onClose();
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
