import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { DEFAULT_PROCESSING_LIMITS } from './processing/index.js';
import { datasetsRepository, type DatasetImageRow, type DatasetRow } from './datasets.repository.js';

/**
 * Where an image's bytes are (ADR 0037), spelled once: a row whose `blob_key` is NULL is a byte range
 * of its dataset's uploaded archive (`source`, inflated when deflated); any other row names a
 * content-addressed blob of its owner. The raw route, thumbnails, exports, training and evaluation
 * read images only through here.
 */
export type ImageSource = Pick<DatasetImageRow, 'source' | 'blobKey'>;

/** A stream of the image's bytes. */
export async function openImage(ctx: AppContext, dataset: Pick<DatasetRow, 'storageKey'>, image: ImageSource): Promise<Readable> {
  if (image.blobKey) return (await ctx.blobs.get(image.blobKey)).stream;
  if (!dataset.storageKey) throw new Error('the dataset has no archive');
  const { source } = image;
  const { stream } = await ctx.blobs.get(dataset.storageKey, { start: source.dataOffset, end: source.dataOffset + source.compressedSize - 1 });
  return source.compressionMethod === 8 ? stream.pipe(zlib.createInflateRaw()) : stream;
}

const inflateRaw = promisify(zlib.inflateRaw);

/** The image's bytes in memory, at most the size the processing limits allow. */
export async function readImageBytes(ctx: AppContext, dataset: Pick<DatasetRow, 'storageKey'>, image: ImageSource): Promise<Buffer> {
  const limit = Math.min(DEFAULT_PROCESSING_LIMITS.maxImageBytes, image.blobKey ? Infinity : image.source.uncompressedSize);
  const file = !image.blobKey && dataset.storageKey ? ctx.blobs.localPath?.(dataset.storageKey) : null;
  if (file && image.source.compressedSize <= DEFAULT_PROCESSING_LIMITS.maxImageBytes) return readArchiveRange(file, image.source, limit);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of (await openImage(ctx, dataset, image)) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw new Error('image larger than recorded or than the processing limit');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

/**
 * An archive range on local disk read with one positioned read (open, read, close: no stream, no per-chunk
 * callbacks), inflated in one call when deflated. The file is opened per read, never kept open: a new archive
 * replaces the file under the same key (ADR 0044), and a kept handle would still read the old one.
 */
async function readArchiveRange(file: string, source: DatasetImageRow['source'], limit: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  let raw: Buffer;
  try {
    raw = Buffer.allocUnsafe(source.compressedSize);
    const { bytesRead } = await fh.read(raw, 0, raw.length, source.dataOffset);
    if (bytesRead !== raw.length) throw new Error('the archive is shorter than the image recorded in it');
  } finally {
    await fh.close();
  }
  const data = source.compressionMethod === 8 ? await inflateRaw(raw, { maxOutputLength: limit }) : raw;
  if (data.length > limit) throw new Error('image larger than recorded or than the processing limit');
  return data;
}

/** The image's size in bytes without reading them. */
export const imageByteSize = (image: Pick<DatasetImageRow, 'source' | 'bytes'>) => image.bytes ?? image.source.uncompressedSize;

/** Blobs are content-addressed within one owner: the team of a team dataset, else its user. Never across owners. */
export const ownerKeyOf = (dataset: Pick<DatasetRow, 'userId' | 'teamId'>) => (dataset.teamId ? `t:${dataset.teamId}` : `u:${dataset.userId}`);

export const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Stores bytes under the owner's content address unless the owner has them already; answers the blob
 * (no reference yet: the rows that point at it add theirs in the edit's transaction) and whether
 * bytes were written.
 */
export async function putBlob(ctx: AppContext, ownerKey: string, data: Buffer, sha256 = sha256Of(data)) {
  const storageKey = blobKeys.datasetBlob(ownerKey, sha256);
  const known = (await datasetsRepository.blobsByHash(ctx.db, ownerKey, [sha256]))[0];
  const stored = known ? await ctx.blobs.head(storageKey) : null;
  if (!stored) await ctx.blobs.put(storageKey, data, { contentLength: data.length });
  return { ownerKey, sha256, storageKey, bytes: data.length, written: !stored };
}

/** Deletes the bytes of blobs that lost their last reference, unless a blob row names the key again meanwhile. */
export async function dropBlobs(ctx: AppContext, keys: string[]) {
  if (!keys.length) return;
  const again = await datasetsRepository.blobKeysInUse(ctx.db, keys);
  await Promise.all(keys.filter((k) => !again.has(k)).map((k) => ctx.blobs.delete(k).catch(() => undefined)));
}

/**
 * A new archive is about to replace the dataset's file (ADR 0044): every revision still read from the
 * old one (the working state's, a saved or trashed version's) must first move to the owner's
 * content-addressed blobs, or its byte range would name bytes of the new file. `plan` reads no image:
 * it answers the rows and the bytes the move writes (contents the owner does not hold yet), for the
 * storage check of the upload.
 */
export async function planArchiveRelease(ctx: AppContext, dataset: DatasetRow) {
  const rows = dataset.storageKey ? await datasetsRepository.archiveBacked(ctx.db, dataset.id) : [];
  const hashes = [...new Set(rows.map((r) => r.sha256).filter((h): h is string => h !== null))];
  const held = new Set((await datasetsRepository.blobsByHash(ctx.db, ownerKeyOf(dataset), hashes)).map((b) => b.sha256));
  const size = new Map<string, number>();
  let unhashed = 0;
  for (const r of rows) {
    if (r.sha256 === null) unhashed += imageByteSize(r);
    else if (!held.has(r.sha256)) size.set(r.sha256, imageByteSize(r));
  }
  return { rows, freshBytes: unhashed + [...size.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Moves the planned rows to blobs (ADR 0044): each distinct content is read once from the archive still
 * in place and stored unless the owner holds it, then one transaction under the dataset's edit lock
 * points the rows at their blobs (one reference each). No edit sequence is taken: the content, labels
 * and places of every revision stay as they were, so version zips keep their bytes.
 */
export async function releaseArchive(ctx: AppContext, dataset: DatasetRow, rows: DatasetImageRow[]) {
  if (!rows.length) return 0;
  const ownerKey = ownerKeyOf(dataset);
  const byContent = new Map<string, Awaited<ReturnType<typeof putBlob>>>();
  const planned: Array<{ id: string; sha256: string; bytes: number; key: string }> = [];
  for (const r of rows) {
    let blob = r.sha256 ? byContent.get(r.sha256) : undefined;
    if (!blob) {
      const data = await readImageBytes(ctx, dataset, r);
      const sha256 = sha256Of(data);
      if (r.sha256 && r.sha256 !== sha256) throw new Error(`image ${r.imageId}: the archive no longer holds the bytes recorded for it`);
      blob = byContent.get(sha256) ?? (await putBlob(ctx, ownerKey, data, sha256));
      byContent.set(sha256, blob);
    }
    planned.push({ id: r.id, sha256: blob.sha256, bytes: blob.bytes, key: blob.storageKey });
  }
  return ctx.db.transaction(async (tx) => {
    await datasetsRepository.lockForEdit(tx, dataset.id);
    for (const b of byContent.values()) await datasetsRepository.ensureBlob(tx, { ownerKey, sha256: b.sha256, storageKey: b.storageKey, bytes: b.bytes });
    return datasetsRepository.pointAtBlobs(tx, dataset.id, planned);
  });
}
