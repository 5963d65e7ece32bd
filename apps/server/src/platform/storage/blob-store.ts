import { Transform, type Readable } from 'node:stream';

export interface BlobPutOptions {
  /** Kept by S3 only; the local store has nowhere to put it and reports none. */
  contentType?: string;
  /** Expected size; the put fails and stores nothing when the body differs. */
  contentLength?: number;
}

/** Byte range, both ends inclusive as in HTTP `Range: bytes=start-end`; `end` past the last byte is clamped. */
export interface BlobRange {
  start: number;
  end?: number;
}

export interface BlobObject {
  stream: Readable;
  /** Total size of the blob, not of the requested range. */
  bytes: number;
  contentType?: string;
}

export interface BlobHead {
  bytes: number;
  contentType?: string;
  modified: Date;
}

export interface BlobListEntry {
  key: string;
  bytes: number;
}

/**
 * Object storage keyed by slash-separated paths such as `users/{uid}/datasets/{id}/{file}`.
 * Prefixes match like S3: `a/b` also matches `a/bc/...`; pass `a/b/` to mean the folder.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Prepares the backing storage (directories, bucket); call once before use. */
  init(): Promise<void>;
  put(key: string, body: Buffer | Readable, opts?: BlobPutOptions): Promise<{ bytes: number }>;
  /** Throws BlobNotFoundError when missing and BlobRangeError when the range starts past the end. */
  get(key: string, range?: BlobRange): Promise<BlobObject>;
  head(key: string): Promise<BlobHead | null>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /** Refuses the empty prefix so a bug cannot wipe the whole store. */
  deletePrefix(prefix: string): Promise<void>;
  /** Order is unspecified. */
  list(prefix: string): AsyncIterable<BlobListEntry>;
  /** Throws BlobNotFoundError when `from` is missing. */
  copy(from: string, to: string): Promise<void>;
  /** Path on disk for random access (e.g. zip central directories), or null when blobs are remote. */
  localPath?(key: string): string | null;
}

export class BlobNotFoundError extends Error {
  readonly code = 'BLOB_NOT_FOUND';
  constructor(readonly key: string) {
    super(`Blob not found: ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobKeyError extends Error {
  readonly code = 'BLOB_INVALID_KEY';
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export class BlobRangeError extends Error {
  readonly code = 'BLOB_RANGE_NOT_SATISFIABLE';
  constructor(
    readonly key: string,
    readonly bytes: number,
  ) {
    super(`Range not satisfiable for ${key} (${bytes} bytes)`);
    this.name = 'BlobRangeError';
  }
}

const MAX_KEY_BYTES = 1024; // S3's limit; the local store keeps it so keys stay portable.

/** Rejects anything that could resolve outside the store root on disk or differ between stores. */
export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'must not be empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new InvalidBlobKeyError(key, `must be at most ${MAX_KEY_BYTES} bytes`);
  if (key.includes('\0')) throw new InvalidBlobKeyError(key, 'must not contain NUL');
  if (key.includes('\\')) throw new InvalidBlobKeyError(key, 'must not contain backslashes');
  if (key.startsWith('/')) throw new InvalidBlobKeyError(key, 'must be relative');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidBlobKeyError(key, 'must not contain empty segments');
    if (segment === '.' || segment === '..') throw new InvalidBlobKeyError(key, 'must not contain "." or ".." segments');
  }
}

/** A prefix is a key, a key with a trailing slash, or '' (everything). */
export function assertBlobPrefix(prefix: string): void {
  if (prefix === '') return;
  assertBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** Passes chunks through, counting them, and fails the stream as soon as the count disagrees with `expected`. */
export function byteCounter(expected?: number): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      counter.bytes += chunk.length;
      if (expected !== undefined && counter.bytes > expected) cb(new Error(`Body is longer than the declared ${expected} bytes`));
      else cb(null, chunk);
    },
    flush(cb) {
      if (expected !== undefined && counter.bytes !== expected) cb(new Error(`Body is ${counter.bytes} bytes, declared ${expected}`));
      else cb();
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

/** A malformed range is a caller bug (RangeError); one past the end of the blob is a BlobRangeError. */
export function assertRange(range: BlobRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new RangeError(`Invalid byte range ${start}-${end ?? ''}`);
  }
}
