import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, opendir, readdir, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

/** Temp files live under the root so the final rename never crosses filesystems and stays atomic. */
const TMP_DIR = '.tmp';
const STALE_TMP_MS = 24 * 3_600_000;

/** A directory standing where a file is expected means "no such blob", as it would in S3. */
function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly root: string;
  private readonly tmp: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmp = path.join(this.root, TMP_DIR);
  }

  async init(): Promise<void> {
    await mkdir(this.tmp, { recursive: true });
    // A crashed process leaves its temp files behind; ones this old cannot belong to a live write.
    const cutoff = Date.now() - STALE_TMP_MS;
    for (const name of await readdir(this.tmp)) {
      const file = path.join(this.tmp, name);
      const st = await stat(file).catch(() => null);
      if (st && st.mtimeMs < cutoff) await rm(file, { force: true });
    }
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async put(key: string, body: Buffer | Readable, opts: BlobPutOptions = {}): Promise<{ bytes: number }> {
    const target = this.pathOf(key);
    if (Buffer.isBuffer(body)) return this.putBuffer(target, body, opts);
    const tmp = await this.tempFile();
    const out = createWriteStream(tmp);
    try {
      const counter = byteCounter(opts.contentLength);
      await pipeline(body, counter, out);
      await this.moveIntoPlace(tmp, target);
      return { bytes: counter.bytes };
    } catch (err) {
      // A stream destroyed while still opening creates its file afterwards: wait for it to close first.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * A body already in memory (previews, small blobs): one `writeFile` to the temp file and the rename, with the
   * directories made only when the rename finds them missing — three file operations where the stream path takes six.
   */
  private async putBuffer(target: string, body: Buffer, opts: BlobPutOptions): Promise<{ bytes: number }> {
    if (opts.contentLength !== undefined && opts.contentLength !== body.length) throw new Error(`Body is ${body.length} bytes, declared ${opts.contentLength}`);
    const tmp = path.join(this.tmp, randomUUID());
    try {
      await writeFile(tmp, body).catch(async (err: unknown) => {
        if (!isMissing(err)) throw err;
        await mkdir(this.tmp, { recursive: true });
        await writeFile(tmp, body);
      });
      await rename(tmp, target).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        return this.moveIntoPlace(tmp, target);
      });
      return { bytes: body.length };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: BlobRange): Promise<BlobObject> {
    const file = this.pathOf(key);
    if (range) assertRange(range);
    const fh = await open(file, 'r').catch((err: unknown) => {
      throw isMissing(err) ? new BlobNotFoundError(key) : err;
    });
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new BlobNotFoundError(key);
      if (range && range.start >= st.size) throw new BlobRangeError(key, st.size);
      // Reading from the handle opened above keeps size and content consistent even if the key is replaced meanwhile.
      const stream = fh.createReadStream(range ? { start: range.start, end: Math.min(range.end ?? Infinity, st.size - 1) } : {});
      return { stream, bytes: st.size };
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  async head(key: string): Promise<BlobHead | null> {
    const st = await stat(this.pathOf(key)).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    });
    return st?.isFile() ? { bytes: st.size, modified: st.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await unlink(file).catch((err: unknown) => {
      if (!isMissing(err)) throw err;
    });
    await this.prune(path.dirname(file));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (prefix === '') throw new InvalidBlobKeyError(prefix, 'deletePrefix needs a non-empty prefix');
    const { dir, fragment } = this.splitPrefix(prefix);
    const names = await readdir(dir).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    // Every entry whose name starts with the fragment holds only matching keys, so whole subtrees can go at once.
    const doomed = names.filter((name) => name.startsWith(fragment) && !(dir === this.root && name === TMP_DIR));
    await Promise.all(doomed.map((name) => rm(path.join(dir, name), { recursive: true, force: true })));
    await this.prune(dir);
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    const { dir, base, fragment } = this.splitPrefix(prefix);
    yield* this.walk(dir, base, (name) => name.startsWith(fragment) && !(dir === this.root && name === TMP_DIR));
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    const tmp = await this.tempFile();
    try {
      await copyFile(source, tmp, constants.COPYFILE_FICLONE).catch((err: unknown) => {
        throw isMissing(err) ? new BlobNotFoundError(from) : err;
      });
      await this.moveIntoPlace(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return this.resolve(key);
  }

  private resolve(keyOrPrefix: string): string {
    const segments = keyOrPrefix.split('/');
    if (segments[0] === TMP_DIR) throw new InvalidBlobKeyError(keyOrPrefix, `"${TMP_DIR}" is reserved`);
    const resolved = path.join(this.root, ...segments);
    // Validation already rules this out; the check keeps a future validator bug from reaching outside the root.
    if (resolved !== this.root && !resolved.startsWith(this.root + path.sep)) throw new InvalidBlobKeyError(keyOrPrefix, 'escapes the store');
    return resolved;
  }

  /** `a/b/c` → directory of `a/b/`, keys there starting with `c`. */
  private splitPrefix(prefix: string): { dir: string; base: string; fragment: string } {
    assertBlobPrefix(prefix);
    const cut = prefix.lastIndexOf('/') + 1;
    const base = prefix.slice(0, cut);
    return { dir: base ? this.resolve(base.slice(0, -1)) : this.root, base, fragment: prefix.slice(cut) };
  }

  private async *walk(dir: string, base: string, accept?: (name: string) => boolean): AsyncGenerator<BlobListEntry> {
    let handle;
    try {
      handle = await opendir(dir);
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for await (const entry of handle) {
      if (accept && !accept(entry.name)) continue;
      const key = base + entry.name;
      if (entry.isDirectory()) {
        yield* this.walk(path.join(dir, entry.name), `${key}/`);
      } else if (entry.isFile()) {
        // Entries can vanish between readdir and stat when deleted concurrently.
        const st = await stat(path.join(dir, entry.name)).catch(() => null);
        if (st) yield { key, bytes: st.size };
      }
    }
  }

  private async tempFile(): Promise<string> {
    await mkdir(this.tmp, { recursive: true });
    return path.join(this.tmp, randomUUID());
  }

  private async moveIntoPlace(tmp: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(tmp, target);
        return;
      } catch (err) {
        // A concurrent delete may prune the parent directory between mkdir and rename.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err;
      }
    }
  }

  /** Removes directories left empty by deletes, stopping at the first non-empty one. */
  private async prune(dir: string): Promise<void> {
    while (dir !== this.root && dir.startsWith(this.root + path.sep)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = path.dirname(dir);
    }
  }
}
