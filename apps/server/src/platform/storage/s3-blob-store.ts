import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, type Readable } from 'node:stream';
import {
  assertBlobKey,
  assertBlobPrefix,
  assertRange,
  BlobNotFoundError,
  BlobRangeError,
  byteCounter,
  InvalidBlobKeyError,
  type BlobHead,
  type BlobListEntry,
  type BlobObject,
  type BlobPutOptions,
  type BlobRange,
  type BlobStore,
} from './blob-store.js';

export interface S3BlobStoreConfig {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Multipart part size; an upload holds at most PART_SIZE × QUEUE_SIZE bytes in memory. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string } | undefined)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(err) === 404;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3BlobStoreConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Since 3.729 the SDK checksums every upload and validates downloads by default; several S3-compatible
      // servers (older MinIO, R2, B2, ...) reject or lack those checksums. s3rver tolerates both, so tests cannot tell.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      // Another instance created it first.
      const name = (err as { name?: string }).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
    }
  }

  localPath(key: string): null {
    assertBlobKey(key);
    return null;
  }

  async put(key: string, body: Buffer | Readable, opts: BlobPutOptions = {}): Promise<{ bytes: number }> {
    assertBlobKey(key);
    if (Buffer.isBuffer(body) && opts.contentLength !== undefined && opts.contentLength !== body.length) {
      throw new Error(`Body is ${body.length} bytes, declared ${opts.contentLength}`);
    }
    // The counter fails a stream of the wrong length before it ends, so the upload is aborted, never completed.
    const counter = Buffer.isBuffer(body) ? null : byteCounter(opts.contentLength);
    const source = Buffer.isBuffer(body) ? body : pipeline(body, counter!, () => {});
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: source, ContentType: opts.contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
    });
    try {
      await upload.done();
    } catch (err) {
      // Releases the caller's stream (and its file handle or socket) when the upload fails on the S3 side.
      if (!Buffer.isBuffer(source)) source.destroy();
      throw err;
    }
    return { bytes: counter ? counter.bytes : (body as Buffer).length };
  }

  async get(key: string, range?: BlobRange): Promise<BlobObject> {
    assertBlobKey(key);
    if (range) assertRange(range);
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined }),
      );
      const stream = res.Body as Readable;
      if (!range) return { stream, bytes: res.ContentLength ?? 0, contentType: res.ContentType };
      // Some S3-compatible servers ignore or mangle ranges; handing back other bytes than asked for would corrupt readers.
      const served = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? '');
      const total = served ? Number(served[3]) : NaN;
      if (!served || Number(served[1]) !== range.start || Number(served[2]) !== Math.min(range.end ?? Infinity, total - 1)) {
        stream.destroy();
        throw new Error(`S3 served ${res.ContentRange ?? 'the whole object'} for ${key} when asked for bytes=${range.start}-${range.end ?? ''}`);
      }
      return { stream, bytes: total, contentType: res.ContentType };
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      if (range && httpStatus(err) === 416) {
        const head = await this.head(key);
        if (!head) throw new BlobNotFoundError(key);
        throw new BlobRangeError(key, head.bytes);
      }
      throw err;
    }
  }

  async head(key: string): Promise<BlobHead | null> {
    assertBlobKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { bytes: res.ContentLength ?? 0, contentType: res.ContentType, modified: res.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (prefix === '') throw new InvalidBlobKeyError(prefix, 'deletePrefix needs a non-empty prefix');
    assertBlobPrefix(prefix);
    let batch: string[] = [];
    const flush = async () => {
      const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      if (res.Errors?.length) throw new Error(`Failed to delete ${res.Errors.length} blobs, first: ${res.Errors[0].Key} ${res.Errors[0].Message}`);
      batch = [];
    };
    for await (const { key } of this.list(prefix)) {
      batch.push(key);
      if (batch.length === 1000) await flush(); // DeleteObjects takes at most 1000 keys.
    }
    if (batch.length) await flush();
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    assertBlobPrefix(prefix);
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix || undefined })) {
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) yield { key: object.Key, bytes: object.Size ?? 0 };
      }
    }
  }

  /** Single-request CopyObject, so sources over 5 GiB are refused by S3. */
  async copy(from: string, to: string): Promise<void> {
    assertBlobKey(from);
    assertBlobKey(to);
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(from);
      throw err;
    }
  }
}
