import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../storage/blob-store.js';
import { BlobNotFoundError, BlobRangeError } from '../storage/blob-store.js';
import { parseRange } from './blob-download.routes.js';
import { errors } from './errors.js';

/**
 * Bodies sent with HEAD, Range and Content-Length handled: an in-memory buffer or a stored blob
 * (datasets for the training clients, export artifacts, an agent's weights).
 */

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

/** Streams a blob with HEAD, Range and Content-Length handled; a missing blob is a 404. */
export async function sendBlob(ctx: { blobs: BlobStore }, request: FastifyRequest, reply: FastifyReply, key: string, contentType: string) {
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
