import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/server';
import { BlobNotFoundError, type BlobStore } from '../storage/blob-store.js';

/** Where resumable uploads live in the blob store: `uploads/tus/{id}/info.json` and `.../chunks/{offset}`. */
export const TUS_BLOB_ROOT = 'uploads/tus/';
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const OFFSET_DIGITS = 16;

interface Info {
  id: string;
  size?: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/**
 * A tus data store on the project's BlobStore contract (ADR 0025), so that with a shared blob store
 * (S3) any instance continues any upload: each PATCH body becomes one chunk object named by its
 * starting offset, the upload's length and metadata are one info object, the offset is the contiguous
 * run of chunks from 0, and the chunks are joined in order once the last byte arrived (`read`).
 * Nothing is kept on an instance between requests. `@tus/s3-store` is not used: it needs S3's
 * multipart listing (ListParts, ListMultipartUploads), which s3rver, the tests' S3 server, and several
 * S3-compatible servers lack. Uploads not finished within `expirationMs` of their creation are deleted
 * by `deleteExpired`, which any instance may run.
 */
export class BlobTusStore extends DataStore {
  constructor(
    private readonly blobs: BlobStore,
    private readonly opts: { expirationMs: number; tmpDir: string },
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
    fs.mkdirSync(opts.tmpDir, { recursive: true });
  }

  private prefix(id: string) {
    if (!ID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    return `${TUS_BLOB_ROOT}${id}/`;
  }

  private async info(id: string): Promise<Info> {
    try {
      const { stream } = await this.blobs.get(`${this.prefix(id)}info.json`);
      return JSON.parse((await readAll(stream)).toString('utf8')) as Info;
    } catch (err) {
      if (err instanceof BlobNotFoundError) throw ERRORS.FILE_NOT_FOUND;
      throw err;
    }
  }

  /** The chunks that make the upload's bytes from 0 on, in order (a stale overlapping chunk is skipped). */
  private async chunks(id: string): Promise<{ offset: number; keys: string[] }> {
    const prefix = `${this.prefix(id)}chunks/`;
    const found: Array<{ start: number; bytes: number; key: string }> = [];
    for await (const entry of this.blobs.list(prefix)) {
      const start = Number(entry.key.slice(prefix.length));
      if (Number.isSafeInteger(start) && entry.bytes > 0) found.push({ start, bytes: entry.bytes, key: entry.key });
    }
    found.sort((a, b) => a.start - b.start || b.bytes - a.bytes);
    let offset = 0;
    const keys: string[] = [];
    for (const c of found) {
      if (c.start !== offset) {
        if (c.start > offset) break; // a gap: nothing after it counts
        continue;
      }
      keys.push(c.key);
      offset += c.bytes;
    }
    return { offset, keys };
  }

  override async create(upload: Upload): Promise<Upload> {
    const info: Info = { id: upload.id, size: upload.size, metadata: upload.metadata, creation_date: upload.creation_date ?? new Date().toISOString() };
    await this.blobs.put(`${this.prefix(upload.id)}info.json`, Buffer.from(JSON.stringify(info)), { contentType: 'application/json' });
    upload.storage = { type: 'blob', path: this.prefix(upload.id) };
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id);
    const { offset } = await this.chunks(id);
    return new Upload({
      id,
      size: info.size,
      offset,
      metadata: info.metadata,
      creation_date: info.creation_date,
      storage: { type: 'blob', path: this.prefix(id) },
    });
  }

  /**
   * The body goes to a local spool file first, then into the store as one chunk: what arrived before
   * the client went away still counts (the client resumes from there, on any instance).
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const prefix = this.prefix(id);
    const spool = path.join(this.opts.tmpDir, `${id}-${offset}-${randomUUID()}`);
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        cb(null, chunk);
      },
    });
    let failure: unknown = null;
    try {
      await pipeline(readable, counter, fs.createWriteStream(spool));
    } catch (err) {
      failure = err;
    }
    try {
      if (received > 0)
        await this.blobs.put(`${prefix}chunks/${String(offset).padStart(OFFSET_DIGITS, '0')}`, fs.createReadStream(spool), { contentLength: received });
    } finally {
      fs.rmSync(spool, { force: true });
    }
    if (failure) throw failure;
    return offset + received;
  }

  /** The upload's bytes, its chunks joined in order. */
  read(id: string): Readable {
    const blobs = this.blobs;
    const chunks = () => this.chunks(id);
    return Readable.from(
      (async function* () {
        for (const key of (await chunks()).keys) {
          const { stream } = await blobs.get(key);
          for await (const part of stream) yield part as Buffer;
        }
      })(),
    );
  }

  override async remove(id: string): Promise<void> {
    const prefix = this.prefix(id);
    if (!(await this.blobs.head(`${prefix}info.json`))) throw ERRORS.FILE_NOT_FOUND;
    await this.blobs.deletePrefix(prefix);
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const info = await this.info(id);
    await this.blobs.put(`${this.prefix(id)}info.json`, Buffer.from(JSON.stringify({ ...info, size: length })), { contentType: 'application/json' });
  }

  override getExpiration(): number {
    return this.opts.expirationMs;
  }

  /** Deletes every upload created more than the expiration ago (finished ones are removed at finish). */
  override async deleteExpired(): Promise<number> {
    if (this.opts.expirationMs <= 0) return 0;
    const cutoff = Date.now() - this.opts.expirationMs;
    const ids = new Set<string>();
    for await (const entry of this.blobs.list(TUS_BLOB_ROOT)) {
      const id = entry.key.slice(TUS_BLOB_ROOT.length).split('/')[0];
      if (id && ID.test(id)) ids.add(id);
    }
    let deleted = 0;
    for (const id of ids) {
      const info = await this.info(id).catch(() => null);
      // An upload whose info is gone (a half-removed one) goes too.
      const created = info?.creation_date ? Date.parse(info.creation_date) : 0;
      if (created > cutoff) continue;
      await this.blobs.deletePrefix(this.prefix(id));
      deleted += 1;
    }
    return deleted;
  }
}
