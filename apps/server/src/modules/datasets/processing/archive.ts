/**
 * Reading uploaded dataset archives without trusting them. The archive is never extracted to disk
 * and never read into memory whole: we list it (zip: the central directory; tar: the headers), check
 * every name and declared size up front, then read single entries by offset on demand, verifying the
 * bytes as they stream (count, and CRC-32 for zip).
 *
 * Formats: zip (stored and deflate, zip64) through yauzl, and uncompressed tar (ustar, pax, GNU long
 * names). Gzip/bzip2/xz-compressed tarballs, rar and 7z are refused with `archive/unsupported-format`:
 * they cannot be read by offset, which both the two-pass processing and serving original images with
 * a byte range rely on.
 */
import { open as openFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { EntryFlag, EntryTable, LOCAL_HEADER_MIN, type ArchiveEntries, type ArchiveEntry, type ArchiveFormat } from './entry-table.js';
import { DatasetProcessingError, ProcessingCode } from './errors.js';
import { normalizeEntryName, printableName } from './paths.js';

export type { ArchiveEntries, ArchiveEntry, ArchiveFormat };

export interface ArchiveLimits {
  /** Sum of the declared uncompressed sizes of all entries. */
  maxTotalUncompressedBytes: number;
  maxEntries: number;
  /** Declared uncompressed/compressed ratio above which an entry counts as a bomb... */
  maxCompressionRatio: number;
  /** ...when it declares more than this many uncompressed bytes (small files compress well legitimately). */
  ratioCheckMinBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxTotalUncompressedBytes: 20 * 1024 ** 3,
  maxEntries: 500_000,
  maxCompressionRatio: 200,
  ratioCheckMinBytes: 1024 * 1024,
};

/**
 * Where an entry's bytes lie in the archive file, so another module can serve the original bytes with
 * a byte range (`dataOffset .. dataOffset + compressedSize - 1`) instead of storing them twice. When
 * `compressionMethod` is 8 the range is a raw deflate stream (`zlib.createInflateRaw()`).
 */
export interface EntrySource {
  format: ArchiveFormat;
  headerOffset: number;
  dataOffset: number;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  crc32: number | null;
}

export interface ArchiveReader {
  readonly format: ArchiveFormat;
  readonly path: string;
  /**
   * Every entry, in archive order, names already checked against zip-slip: a table of columns read by
   * position (ADR 0042), no object per entry; `entries.entry(position)` makes one when asked. The
   * methods below name an entry by its position.
   */
  readonly entries: ArchiveEntries;
  /** Finds where the entry's data starts (reads the zip local header: 30 bytes plus names). */
  locate(position: number): Promise<EntrySource>;
  /**
   * Streams the entry's uncompressed bytes. The stream fails with `archive/bomb` as soon as it yields
   * more than the declared size, `archive/corrupt-entry` when it yields less or the data does not
   * inflate, and `archive/crc-mismatch` on a bad checksum.
   */
  openEntry(position: number): Promise<Readable>;
  /**
   * Reads a whole entry into memory, verified as `openEntry` does, with where it lies in the archive.
   * Refuses entries that declare more than `maxBytes` (`archive/too-large`).
   */
  readEntry(position: number, maxBytes: number): Promise<{ data: Buffer; source: EntrySource }>;
  /**
   * Reads many entries in archive order in one sequential pass over the file (large reads, no
   * per-entry stream), verified as `readEntry` does. Damage confined to one entry is yielded as its
   * `error` (a `DatasetProcessingError`); the caller decides whether it stops the pass. `data` may be a
   * view into a shared read buffer: copy it to keep it beyond the next few entries. A caller that calls
   * a read's `release()` once done with its `data` lets the pass reuse that read buffer (ADR 0042): the
   * pass then allocates a bounded number of read buffers whatever the archive's size, instead of one
   * per window left to the garbage collector. Each read carries its entry as an object, made for it,
   * its position and its `index` in `positions`.
   */
  readInOrder(positions: ArrayLike<number>, maxBytes: number): AsyncGenerator<SequentialRead>;
  close(): Promise<void>;
}

export type SequentialRead =
  | { index: number; position: number; entry: ArchiveEntry; data: Buffer; source: EntrySource; error?: undefined; release(): void }
  | { index: number; position: number; entry: ArchiveEntry; error: DatasetProcessingError; release(): void };

/**
 * Opens an archive from a file path and lists it. Throws `DatasetProcessingError` with
 * `archive/not-a-zip`, `archive/unsupported-format`, `archive/corrupt`, `archive/unsafe-path` (naming
 * the entry), `archive/too-large`, `archive/bomb` or `archive/duplicate-entry`.
 */
export async function openArchive(path: string, limits: Partial<ArchiveLimits> = {}): Promise<ArchiveReader> {
  const lim = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  const { head, size } = await readHead(path);
  const sniffed = sniff(head, size);
  if (sniffed === 'tar') return openTar(path, size, lim);
  return openZip(path, lim, head);
}

async function readHead(path: string): Promise<{ head: Buffer; size: number }> {
  const handle = await openFile(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 512));
    await handle.read(head, 0, head.length, 0);
    return { head, size };
  } finally {
    await handle.close();
  }
}

function sniff(head: Buffer, size: number): 'zip' | 'tar' {
  if (size === 0) throw new DatasetProcessingError(ProcessingCode.NotAZip, 'The file is empty, not a zip archive.');
  const startsWith = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const refuse = (what: string) => {
    throw new DatasetProcessingError(ProcessingCode.UnsupportedFormat, `The file is ${what}. Upload a .zip (or an uncompressed .tar) archive.`);
  };
  if (startsWith(0x1f, 0x8b)) refuse('gzip-compressed (.gz / .tar.gz / .tgz)');
  if (startsWith(0x42, 0x5a, 0x68)) refuse('bzip2-compressed (.bz2)');
  if (startsWith(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) refuse('xz-compressed (.xz)');
  if (startsWith(0x52, 0x61, 0x72, 0x21)) refuse('a RAR archive');
  if (startsWith(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) refuse('a 7-Zip archive');
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  return 'zip';
}

// ---------------------------------------------------------------------------------------------
// zip

/** The parts of yauzl 3.x that @types/yauzl (written for 2.x) does not describe. */
interface ZipExtraField {
  id: number;
  data: Buffer;
}
interface ZipFileLowLevel {
  entryCount: number;
  /** Where the central directory starts (yauzl found it in the end records, zip64 included). */
  readEntryCursor: number;
  close(): void;
  readLocalFileHeader(
    entry: { relativeOffsetOfLocalHeader: number; compressedSize: number },
    options: { minimal: true },
    callback: (err: Error | null, header: { fileDataStart: number }) => void,
  ): void;
  openReadStreamLowLevel(
    fileDataStart: number,
    compressedSize: number,
    relativeStart: number,
    relativeEnd: number,
    decompress: boolean,
    uncompressedSize: number,
    callback: (err: Error | null, stream: Readable) => void,
  ): void;
}
const yauzlLowLevel = yauzl as unknown as {
  getFileNameLowLevel(flags: number, raw: Buffer, extraFields: ZipExtraField[], strictFileNames: boolean): string;
};

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const ZIP_MADE_BY_UNIX = 3;

async function openZip(path: string, lim: ArchiveLimits, head: Buffer): Promise<ArchiveReader> {
  let zip: ZipFileLowLevel;
  try {
    zip = await new Promise<ZipFileLowLevel>((resolve, reject) =>
      // decodeStrings:false so that we, not yauzl, judge names: yauzl would fail with a bare message,
      // we want `archive/unsafe-path` naming the entry. autoClose:false keeps the file open for pass 2.
      yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zf) =>
        err ? reject(err) : resolve(zf as unknown as ZipFileLowLevel),
      ),
    );
  } catch (err) {
    const message = (err as Error).message;
    if (/end of central directory record signature not found/i.test(message)) {
      if (head.length >= 4 && head.readUInt32LE(0) === 0x04034b50) {
        throw new DatasetProcessingError(
          ProcessingCode.Corrupt,
          'The zip archive is incomplete or damaged (its central directory is missing). Was the upload complete?',
        );
      }
      throw new DatasetProcessingError(ProcessingCode.NotAZip, 'The file is not a zip archive.');
    }
    throw new DatasetProcessingError(ProcessingCode.Corrupt, `The zip archive is damaged: ${message}`);
  }

  if (zip.entryCount > lim.maxEntries) {
    zip.close();
    throw new DatasetProcessingError(ProcessingCode.TooLarge, `The archive has ${zip.entryCount} entries; the limit is ${lim.maxEntries}.`);
  }

  let entries: EntryTable;
  try {
    entries = await listZip(path, zip, lim);
    checkNoOverlap(entries);
  } catch (err) {
    zip.close();
    throw err;
  }

  const locate = (entry: ArchiveEntry) =>
    new Promise<EntrySource>((resolve, reject) =>
      zip.readLocalFileHeader({ relativeOffsetOfLocalHeader: entry.headerOffset, compressedSize: entry.compressedSize }, { minimal: true }, (err, header) =>
        err
          ? reject(new DatasetProcessingError(ProcessingCode.CorruptEntry, `Cannot read ${entry.name}: ${err.message}`, entry.name))
          : resolve({
              format: 'zip',
              headerOffset: entry.headerOffset,
              dataOffset: header.fileDataStart,
              compressedSize: entry.compressedSize,
              uncompressedSize: entry.uncompressedSize,
              compressionMethod: entry.compressionMethod,
              crc32: entry.crc32,
            }),
      ),
    );

  const open = async (entry: ArchiveEntry): Promise<Opened> => {
    assertReadable(entry);
    const source = await locate(entry);
    const raw = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStreamLowLevel(
        source.dataOffset,
        entry.compressedSize,
        0,
        entry.compressedSize,
        entry.compressionMethod === 8,
        entry.uncompressedSize,
        (err, stream) =>
          err ? reject(new DatasetProcessingError(ProcessingCode.CorruptEntry, `Cannot read ${entry.name}: ${err.message}`, entry.name)) : resolve(stream),
      ),
    );
    return { stream: verified(raw, entry), source };
  };

  let closed = false;
  const spareWindows: Buffer[] = [];
  return {
    format: 'zip',
    path,
    entries,
    locate: (position) => locate(entries.entry(position)),
    openEntry: async (position) => (await open(entries.entry(position))).stream,
    readEntry: (position, maxBytes) => readWhole(open, entries.entry(position), maxBytes),
    readInOrder: (positions, maxBytes) =>
      readInOrder(path, entries, positions, maxBytes, spareWindows, (span, entry) => {
        assertReadable(entry);
        return whenReady(span.bytes(entry.headerOffset, LOCAL_HEADER_MIN), (header) => readZipData(span, entry, header));
      }),
    close: async () => {
      if (!closed) zip.close();
      closed = true;
    },
  };
}

/** The rest of `readInOrder`'s read of a zip entry once its local header is in: its data, inflated. */
function readZipData(span: SpanReader, entry: ArchiveEntry, header: Buffer): WindowRead | Promise<WindowRead> {
  if (header.readUInt32LE(0) !== 0x04034b50) {
    throw new DatasetProcessingError(
      ProcessingCode.CorruptEntry,
      `Cannot read ${entry.name}: invalid local file header signature: 0x${header.readUInt32LE(0).toString(16)}`,
      entry.name,
    );
  }
  const dataOffset = entry.headerOffset + LOCAL_HEADER_MIN + header.readUInt16LE(26) + header.readUInt16LE(28);
  const source: EntrySource = {
    format: 'zip',
    headerOffset: entry.headerOffset,
    dataOffset,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    compressionMethod: entry.compressionMethod,
    crc32: entry.crc32,
  };
  return whenReady(span.bytes(dataOffset, entry.compressedSize), (raw) =>
    entry.compressionMethod === 8 ? inflateEntry(raw, entry).then((data) => ({ source, data })) : { source, data: raw },
  );
}

/** Central directory bytes read at once when listing a zip: one read per thousands of entries (at most 3 × 65,535 + 46 bytes a record). */
const CENTRAL_DIRECTORY_CHUNK = 256 * 1024;
/** Fixed part of a central directory file header. */
const CENTRAL_HEADER = 46;

/**
 * Lists a zip from its central directory, read in large chunks into one reused buffer and parsed in
 * place (ADR 0042): yauzl's own listing reads each entry with two small reads and builds a full
 * entry object with buffers per entry, garbage that made the peak memory of processing grow with the
 * number of entries. The checks are yauzl's (signature, strong encryption, extra fields, zip64 sizes,
 * stored sizes) with its messages; names are decoded by yauzl's own function.
 */
async function listZip(path: string, zip: ZipFileLowLevel, lim: ArchiveLimits): Promise<EntryTable> {
  const entries = new EntryTable('zip', zip.entryCount);
  let total = 0;
  const damaged = (message: string) => new DatasetProcessingError(ProcessingCode.Corrupt, `The zip archive is damaged: ${message}`);
  const handle = await openFile(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CENTRAL_DIRECTORY_CHUNK);
    let chunkStart = 0;
    let chunkLength = 0;
    /** Offset in `chunk` of the file's bytes [at, at + length), reading them in when they are not there. */
    const bytesAt = async (at: number, length: number): Promise<number> => {
      if (at >= chunkStart && at + length <= chunkStart + chunkLength) return at - chunkStart;
      chunkStart = at;
      chunkLength = 0;
      while (chunkLength < length) {
        const { bytesRead } = await handle.read(chunk, chunkLength, chunk.length - chunkLength, at + chunkLength);
        if (bytesRead === 0) throw damaged('unexpected EOF');
        chunkLength += bytesRead;
      }
      return 0;
    };
    let cursor = zip.readEntryCursor;
    /** `bytesAt` without a promise when the bytes are already in the chunk: the common case, thousands of times. */
    const inChunk = (at: number, length: number) => (at >= chunkStart && at + length <= chunkStart + chunkLength ? at - chunkStart : -1);
    for (let i = 0; i < zip.entryCount; i++) {
      let o = inChunk(cursor, CENTRAL_HEADER);
      if (o < 0) o = await bytesAt(cursor, CENTRAL_HEADER);
      const signature = chunk.readUInt32LE(o);
      if (signature !== 0x02014b50) throw damaged(`invalid central directory file header signature: 0x${signature.toString(16)}`);
      const flags = chunk.readUInt16LE(o + 8);
      if (flags & 0x40) throw damaged('strong encryption is not supported');
      const nameLength = chunk.readUInt16LE(o + 28);
      const extraLength = chunk.readUInt16LE(o + 30);
      const commentLength = chunk.readUInt16LE(o + 32);
      // At most 46 + 3 × 65,535 bytes: always fits the chunk.
      const recordLength = CENTRAL_HEADER + nameLength + extraLength + commentLength;
      o = inChunk(cursor, recordLength);
      if (o < 0) o = await bytesAt(cursor, recordLength);
      const versionMadeBy = chunk.readUInt16LE(o + 4);
      const compressionMethod = chunk.readUInt16LE(o + 10);
      const crc32 = chunk.readUInt32LE(o + 16);
      let compressedSize = chunk.readUInt32LE(o + 20);
      let uncompressedSize = chunk.readUInt32LE(o + 24);
      const externalFileAttributes = chunk.readUInt32LE(o + 38);
      let headerOffset = chunk.readUInt32LE(o + 42);
      const nameStart = o + CENTRAL_HEADER;
      const extraFields = parseExtraFields(chunk.subarray(nameStart + nameLength, nameStart + nameLength + extraLength));
      if (!extraFields) throw damaged('extra field length exceeds extra field buffer size');
      const zip64 = extraFields.find((f) => f.id === 0x0001)?.data;
      if (zip64) {
        let at = 0;
        const wide = (what: string) => {
          if (at + 8 > zip64.length) throw damaged(`zip64 extended information extra field does not include ${what}`);
          const value = zip64.readUInt32LE(at) + zip64.readUInt32LE(at + 4) * 0x100000000;
          at += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = wide('uncompressed size');
        if (compressedSize === 0xffffffff) compressedSize = wide('compressed size');
        if (headerOffset === 0xffffffff) headerOffset = wide('relative header offset');
      }
      const encrypted = (flags & 1) !== 0;
      if (compressionMethod === 0 && compressedSize !== uncompressedSize + (encrypted ? 12 : 0)) {
        throw damaged(`compressed/uncompressed size mismatch for stored file: ${compressedSize} != ${uncompressedSize}`);
      }
      const plain = isPlainName(chunk, nameStart, nameLength, extraFields);
      let isDirectory: boolean;
      if (plain) {
        // The bytes are the name already (ADR 0042): no string is made for it.
        isDirectory = chunk[nameStart + nameLength - 1] === SLASH;
        entries.writeNameBytes(chunk, nameStart, nameStart + nameLength - (isDirectory ? 1 : 0));
      } else {
        const rawName = yauzlLowLevel.getFileNameLowLevel(flags, chunk.subarray(nameStart, nameStart + nameLength), extraFields, true);
        const normalized = normalizeEntryName(rawName);
        if (!normalized.ok) {
          throw new DatasetProcessingError(
            ProcessingCode.UnsafePath,
            `Unsafe path in the archive: "${printableName(rawName)}" ${normalized.reason}.`,
            printableName(rawName),
          );
        }
        isDirectory = normalized.isDirectory || normalized.name === '';
        entries.writeName(normalized.name);
      }
      cursor += recordLength;
      const isUnix = versionMadeBy >> 8 === ZIP_MADE_BY_UNIX;
      const isLink = isUnix && ((externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
      const position = entries.push(
        (isDirectory ? EntryFlag.Directory : 0) | (isLink ? EntryFlag.Link : 0) | (encrypted ? EntryFlag.Encrypted : 0),
        compressionMethod,
        crc32,
        compressedSize,
        uncompressedSize,
        headerOffset,
      );
      checkDeclaredSizes(entries, position, lim);
      total += uncompressedSize;
      if (total > lim.maxTotalUncompressedBytes) {
        throw new DatasetProcessingError(ProcessingCode.TooLarge, `The archive unpacks to more than ${formatBytes(lim.maxTotalUncompressedBytes)}, the limit.`);
      }
      // Two entries with one name are read differently by different tools; that ambiguity is
      // exactly what archive-confusion attacks use, and no honest dataset needs it.
      if (!isDirectory) checkUnique(entries, position);
    }
    entries.seal();
    return entries;
  } finally {
    await handle.close();
  }
}

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * The name of a zip entry when it is plain printable ASCII already in normal form (no `\\`, no empty,
 * `.` or `..` segment but a trailing `/`, not absolute, no drive letter) and carries no Unicode path
 * field: what `getFileNameLowLevel` + `normalizeEntryName` would make of it. Null for any other name,
 * which goes the general way. The listing copies such a name's bytes into its pool as they are (ADR 0042).
 */
export function plainName(buf: Buffer, start: number, length: number, extraFields: readonly ZipExtraField[]): string | null {
  return isPlainName(buf, start, length, extraFields) ? buf.toString('latin1', start, start + length) : null;
}

/** Whether `plainName` takes the name as it is: its bytes are then the entry's name (a trailing `/` aside). */
function isPlainName(buf: Buffer, start: number, length: number, extraFields: readonly ZipExtraField[]): boolean {
  if (length === 0) return false;
  for (const field of extraFields) if (field.id === 0x7075) return false;
  let segment = 0;
  let dots = 0;
  for (let i = 0; i < length; i++) {
    const c = buf[start + i];
    if (c < 0x20 || c > 0x7e || c === 0x5c) return false;
    if (c === SLASH) {
      if (segment === 0 || segment === dots) return false; // `//`, a leading `/`, `./` or `../`
      segment = 0;
      dots = 0;
    } else {
      segment++;
      if (c === DOT && dots === segment - 1) dots++;
      if (c === 0x3a && i === 1) {
        const d = buf[start] | 0x20;
        if (d >= 0x61 && d <= 0x7a) return false; // a drive letter
      }
    }
  }
  return !(segment !== 0 && segment === dots && dots <= 2); // not ending with `.` or `..`
}

/** The zip extra fields of one entry (views into `raw`), or null when one runs past the end. */
function parseExtraFields(raw: Buffer): ZipExtraField[] | null {
  const fields: ZipExtraField[] = [];
  let i = 0;
  while (i < raw.length - 3) {
    const id = raw.readUInt16LE(i);
    const end = i + 4 + raw.readUInt16LE(i + 2);
    if (end > raw.length) return null;
    fields.push({ id, data: raw.subarray(i + 4, end) });
    i = end;
  }
  return fields;
}

function checkDeclaredSizes(entries: EntryTable, position: number, lim: ArchiveLimits) {
  const uncompressed = entries.uncompressedSize(position);
  if (uncompressed <= lim.ratioCheckMinBytes) return;
  const compressed = entries.compressedSize(position);
  const ratio = compressed === 0 ? Infinity : uncompressed / compressed;
  if (ratio > lim.maxCompressionRatio) {
    const name = entries.name(position);
    throw new DatasetProcessingError(
      ProcessingCode.Bomb,
      `"${name}" declares ${formatBytes(uncompressed)} from ${formatBytes(compressed)} (ratio ${Math.round(ratio)}:1, limit ${lim.maxCompressionRatio}:1); refusing a likely zip bomb.`,
      name,
    );
  }
}

/** Refuses a second file of one name (names compared in the listing's pool, no set of strings: ADR 0042). */
function checkUnique(entries: EntryTable, position: number) {
  if (entries.claimName(position) === -1) return;
  const name = entries.name(position);
  throw new DatasetProcessingError(ProcessingCode.DuplicateEntry, `The archive holds "${name}" twice.`, name);
}

/**
 * Overlapping entries are how "non-recursive" zip bombs reach huge sizes with honest per-entry
 * ratios (many central records pointing at one compressed kernel). Honest zips never overlap.
 */
function checkNoOverlap(entries: EntryTable) {
  const sorted = entries.byHeaderOffset();
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const next = sorted[i];
    if (entries.headerOffset(next) < entries.headerOffset(prev) + LOCAL_HEADER_MIN + entries.compressedSize(prev)) {
      const nextName = entries.name(next);
      throw new DatasetProcessingError(
        ProcessingCode.Bomb,
        `Entries "${entries.name(prev)}" and "${nextName}" overlap in the archive; refusing a likely zip bomb.`,
        nextName,
      );
    }
  }
}

function assertReadable(entry: ArchiveEntry) {
  if (entry.encrypted)
    throw new DatasetProcessingError(ProcessingCode.Encrypted, `${entry.name} is encrypted; upload an archive without a password.`, entry.name);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new DatasetProcessingError(
      ProcessingCode.UnsupportedCompression,
      `${entry.name} uses compression method ${entry.compressionMethod}; only stored and deflate are supported. Re-create the zip with default settings.`,
      entry.name,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// tar

const BLOCK = 512;
/** Caps the pax / GNU long-name records we buffer; real ones are a few hundred bytes. */
const MAX_TAR_META = 1024 * 1024;

async function openTar(path: string, fileSize: number, lim: ArchiveLimits): Promise<ArchiveReader> {
  const entries = new EntryTable('tar', 1024);
  const handle = await openFile(path, 'r');
  try {
    const header = Buffer.alloc(BLOCK);
    let offset = 0;
    let total = 0;
    let longName: string | null = null;
    let pax: Record<string, string> = {};
    let paxGlobal: Record<string, string> = {};
    for (;;) {
      if (offset + BLOCK > fileSize) {
        // A tar without its two zero end blocks is common (some writers skip them); only a header
        // cut in half is damage.
        if (offset === fileSize) break;
        throw new DatasetProcessingError(ProcessingCode.Corrupt, 'The tar archive is incomplete (it ends inside a header). Was the upload complete?');
      }
      await handle.read(header, 0, BLOCK, offset);
      if (header.every((b) => b === 0)) break;
      if (!tarChecksumOk(header))
        throw new DatasetProcessingError(ProcessingCode.Corrupt, `The tar archive is damaged: bad header checksum at byte ${offset}.`);
      const type = String.fromCharCode(header[156] || 0x30);
      const size = tarNumber(header.subarray(124, 136));
      const dataOffset = offset + BLOCK;
      const truncated = (length: number) => {
        if (dataOffset + length > fileSize)
          throw new DatasetProcessingError(ProcessingCode.Corrupt, 'The tar archive is incomplete (an entry runs past the end). Was the upload complete?');
        return dataOffset + Math.ceil(length / BLOCK) * BLOCK;
      };

      if (type === 'x' || type === 'g' || type === 'L') {
        const next = truncated(size);
        if (size > MAX_TAR_META) throw new DatasetProcessingError(ProcessingCode.Corrupt, `The tar archive has an oversized ${type} header at byte ${offset}.`);
        const data = Buffer.alloc(size);
        await handle.read(data, 0, size, dataOffset);
        if (type === 'L') longName = cString(data);
        else if (type === 'x') pax = parsePax(data);
        else paxGlobal = { ...paxGlobal, ...parsePax(data) };
        offset = next;
        continue;
      }

      const meta = { ...paxGlobal, ...pax };
      const ustar = header.toString('latin1', 257, 262) === 'ustar';
      const prefix = ustar ? cString(header.subarray(345, 500)) : '';
      const rawName = meta.path ?? longName ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
      // pax carries the real size of files over 8 GiB, whose octal field cannot hold it.
      const entrySize = meta.size !== undefined ? Number(meta.size) : size;
      const next = truncated(entrySize);
      longName = null;
      pax = {};

      const normalized = normalizeEntryName(rawName);
      if (!normalized.ok)
        throw new DatasetProcessingError(
          ProcessingCode.UnsafePath,
          `Unsafe path in the archive: "${printableName(rawName)}" ${normalized.reason}.`,
          printableName(rawName),
        );
      if (entries.count >= lim.maxEntries)
        throw new DatasetProcessingError(ProcessingCode.TooLarge, `The archive has more than ${lim.maxEntries} entries, the limit.`);
      // GNU sparse files (type S, or pax GNU.sparse.* records on a plain file) store holes as a map:
      // their bytes are not the file's bytes, so they are refused by name, not read as garbage or called links.
      const sparse = type === 'S' || Object.keys(meta).some((k) => k.startsWith('GNU.sparse.'));
      const isFile = !sparse && (type === '0' || type === '7' || type === '\0');
      const isDirectory = type === '5' || normalized.name === '';
      const isLink = !isFile && !sparse && type !== '5';
      const bytes = isFile ? entrySize : 0;
      entries.writeName(normalized.name);
      const position = entries.push(
        (isDirectory ? EntryFlag.Directory : 0) | (isLink ? EntryFlag.Link : 0) | (sparse ? EntryFlag.Sparse : 0),
        0,
        0,
        bytes,
        bytes,
        offset,
        dataOffset,
      );
      total += bytes;
      if (total > lim.maxTotalUncompressedBytes)
        throw new DatasetProcessingError(ProcessingCode.TooLarge, `The archive unpacks to more than ${formatBytes(lim.maxTotalUncompressedBytes)}, the limit.`);
      if (isFile) checkUnique(entries, position);
      offset = next;
    }
    entries.seal();
  } finally {
    await handle.close();
  }

  const sourceOf = (entry: ArchiveEntry): EntrySource => ({
    format: 'tar',
    headerOffset: entry.headerOffset,
    dataOffset: entries.dataOffset(entry.position),
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    compressionMethod: 0,
    crc32: null,
  });
  const locate = async (entry: ArchiveEntry): Promise<EntrySource> => sourceOf(entry);
  const open = async (entry: ArchiveEntry): Promise<Opened> => {
    const source = await locate(entry);
    const { dataOffset } = source;
    const raw = entry.uncompressedSize === 0 ? Readable.from([]) : createReadStream(path, { start: dataOffset, end: dataOffset + entry.uncompressedSize - 1 });
    return { stream: verified(raw, entry), source };
  };
  const spareWindows: Buffer[] = [];
  return {
    format: 'tar',
    path,
    entries,
    locate: (position) => locate(entries.entry(position)),
    openEntry: async (position) => (await open(entries.entry(position))).stream,
    readEntry: (position, maxBytes) => readWhole(open, entries.entry(position), maxBytes),
    readInOrder: (positions, maxBytes) =>
      readInOrder(path, entries, positions, maxBytes, spareWindows, (span, entry) => {
        const source = sourceOf(entry);
        return whenReady(span.bytes(source.dataOffset, entry.uncompressedSize), (data) => ({ source, data }));
      }),
    close: async () => undefined,
  };
}

function tarChecksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return tarNumber(header.subarray(148, 156)) === sum;
}

/** Octal text, or GNU base-256 (high bit set) for sizes of 8 GiB and more. */
function tarNumber(field: Buffer): number {
  if (field[0] & 0x80) {
    let value = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i];
    return value;
  }
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

const cString = (buf: Buffer): string => {
  const end = buf.indexOf(0);
  return buf.toString('utf8', 0, end === -1 ? buf.length : end);
};

/** pax records: `<length> <key>=<value>\n`, the length counting the whole record. */
function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space === -1) break;
    const length = parseInt(data.toString('latin1', pos, space), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.toString('utf8', space + 1, pos + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    pos += length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// shared

/**
 * Counts (and for zip, checksums) the bytes as they pass. yauzl already asserts inflated sizes, but
 * this keeps the guarantee ours, for every format and whatever the library version.
 */
function verified(source: Readable, entry: ArchiveEntry): Readable {
  let count = 0;
  let crc = 0;
  const verifier = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      count += chunk.length;
      if (count > entry.uncompressedSize) {
        callback(new DatasetProcessingError(ProcessingCode.Bomb, bombMessage(entry), entry.name));
        return;
      }
      if (entry.crc32 !== null) crc = zlib.crc32(chunk, crc);
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (count < entry.uncompressedSize) {
        callback(
          new DatasetProcessingError(
            ProcessingCode.CorruptEntry,
            `"${entry.name}" is damaged: ${count} of ${entry.uncompressedSize} bytes could be read.`,
            entry.name,
          ),
        );
      } else if (entry.crc32 !== null && crc >>> 0 !== entry.crc32 >>> 0) {
        callback(new DatasetProcessingError(ProcessingCode.CrcMismatch, `"${entry.name}" is damaged: its checksum does not match.`, entry.name));
      } else callback();
    },
  });
  source.on('error', (err) => verifier.destroy(toEntryError(err, entry)));
  verifier.on('close', () => source.destroy());
  source.pipe(verifier);
  return verifier;
}

function toEntryError(err: Error, entry: ArchiveEntry): Error {
  if (err instanceof DatasetProcessingError) return err;
  if (/too many bytes/i.test(err.message)) {
    return new DatasetProcessingError(ProcessingCode.Bomb, bombMessage(entry), entry.name);
  }
  const zlibCode = (err as NodeJS.ErrnoException).code;
  if (/not enough bytes/i.test(err.message) || (typeof zlibCode === 'string' && zlibCode.startsWith('Z_'))) {
    return new DatasetProcessingError(ProcessingCode.CorruptEntry, `"${entry.name}" is damaged: ${err.message}.`, entry.name);
  }
  return err;
}

/**
 * Reads of at least this size keep the pass sequential and the syscalls few; a read stops earlier
 * where the pass's last entry ends (ADR 0042), so that a window over small entries reads, and holds in
 * memory, only the bytes the pass needs.
 */
const READ_WINDOW = 4 * 1024 * 1024;

/**
 * Byte ranges of one file served from a moving read window; ranges are asked for in ascending order.
 * A range in the window comes back at once, not as a promise: most entries of a pass lie in the window
 * already, and a promise per range was most of the pass's garbage (ADR 0042).
 */
interface SpanReader {
  bytes(start: number, length: number): Buffer | Promise<Buffer>;
}

/** What one read of `readInOrder` gives. */
interface WindowRead {
  data: Buffer;
  source: EntrySource;
}

/** `next` of `value` now when it is there, else once it comes. */
function whenReady<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Read buffers kept for reuse by one pass: two cover a window being read while the previous one's last images are still checked. */
const SPARE_WINDOWS = 2;

/** A read buffer and the yielded reads that still look into it (ADR 0042). */
interface ReadWindow {
  buf: Buffer;
  start: number;
  length: number;
  users: number;
  retired: boolean;
}

async function* readInOrder(
  path: string,
  entries: EntryTable,
  positions: ArrayLike<number>,
  maxBytes: number,
  spare: Buffer[],
  read: (span: SpanReader, entry: ArchiveEntry) => WindowRead | Promise<WindowRead>,
): AsyncGenerator<SequentialRead> {
  const sorted = entries.byHeaderOffset(positions);
  // Where the pass's bytes end (an estimate: a longer local header only costs one more read).
  const horizon = sorted.length === 0 ? 0 : entries.extentEnd(positions[sorted[sorted.length - 1]]);
  const handle = await openFile(path, 'r');
  // `spare`: the reader's buffers of retired windows that no read looks into any more. The next window
  // (of this pass or the reader's next one) reuses one, so processing 32,000 images allocates a few read
  // buffers, not one per 4 MB read left to the collector.
  const retire = (w: ReadWindow) => {
    w.retired = true;
    if (w.users === 0 && spare.length < SPARE_WINDOWS && w.buf.length >= READ_WINDOW) spare.push(w.buf);
  };
  try {
    const { size: fileSize } = await handle.stat();
    let window: ReadWindow = { buf: Buffer.alloc(0), start: 0, length: 0, users: 0, retired: false };
    /** Moves the window to `start` (one read of up to READ_WINDOW bytes) and gives the range. */
    const moveWindow = async (start: number, length: number): Promise<Buffer> => {
      const size = Math.min(Math.max(length, Math.min(READ_WINDOW, horizon - start)), fileSize - start);
      if (start < 0 || size < length) throw new DatasetProcessingError(ProcessingCode.CorruptEntry, 'runs past the end of the archive');
      const reuse = spare.findIndex((b) => b.length >= size);
      const next = reuse >= 0 ? spare.splice(reuse, 1)[0]! : Buffer.allocUnsafe(Math.max(size, READ_WINDOW));
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(next, filled, size - filled, start + filled);
        if (bytesRead === 0) throw new DatasetProcessingError(ProcessingCode.CorruptEntry, 'runs past the end of the archive');
        filled += bytesRead;
      }
      retire(window);
      window = { buf: next, start, length: size, users: 0, retired: false };
      return next.subarray(0, length);
    };
    const span: SpanReader & { window(): ReadWindow } = {
      window: () => window,
      bytes(start, length) {
        if (start < window.start || start + length > window.start + window.length) return moveWindow(start, length);
        return window.buf.subarray(start - window.start, start - window.start + length);
      },
    };
    const noop = () => undefined;
    for (const index of sorted) {
      // The entry's object is made for its read and goes with it (ADR 0042).
      const position = positions[index];
      const entry = entries.entry(position);
      let result: SequentialRead;
      try {
        if (entry.uncompressedSize > maxBytes) {
          throw new DatasetProcessingError(
            ProcessingCode.TooLarge,
            `"${entry.name}" is ${formatBytes(entry.uncompressedSize)}; the limit for one file is ${formatBytes(maxBytes)}.`,
            entry.name,
          );
        }
        const got = read(span, entry);
        const { data, source } = got instanceof Promise ? await got : got;
        checkContent(data, entry);
        // A view into the read buffer holds it until released; inflated data is the read's own.
        const w = span.window();
        let release = noop;
        if (data.buffer === w.buf.buffer) {
          w.users++;
          let done = false;
          release = () => {
            if (done) return;
            done = true;
            w.users--;
            if (w.retired && w.users === 0 && spare.length < SPARE_WINDOWS && w.buf.length >= READ_WINDOW) spare.push(w.buf);
          };
        }
        result = { index, position, entry, data, source, release };
      } catch (err) {
        if (!(err instanceof DatasetProcessingError)) throw err;
        const error = err.file ? err : new DatasetProcessingError(err.code, `"${entry.name}" is damaged: ${err.message}.`, entry.name);
        result = { index, position, entry, error, release: noop };
      }
      yield result;
    }
    // The last window too: the reader's next pass reuses it once its reads are released.
    retire(window);
  } finally {
    await handle.close();
  }
}

function inflateEntry(raw: Buffer, entry: ArchiveEntry): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // One byte of headroom tells "inflates past its declared size" (a bomb) from "exactly right".
    zlib.inflateRaw(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize + 1) }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        reject(new DatasetProcessingError(ProcessingCode.Bomb, bombMessage(entry), entry.name));
      else reject(new DatasetProcessingError(ProcessingCode.CorruptEntry, `"${entry.name}" is damaged: ${err.message}.`, entry.name));
    }),
  );
}

const bombMessage = (entry: ArchiveEntry) =>
  `"${entry.name}" inflates beyond its declared size of ${entry.uncompressedSize} bytes; refusing a likely zip bomb.`;

/** The checks `verified` makes while streaming, for an entry read whole. */
function checkContent(data: Buffer, entry: ArchiveEntry) {
  if (data.length > entry.uncompressedSize) throw new DatasetProcessingError(ProcessingCode.Bomb, bombMessage(entry), entry.name);
  if (data.length < entry.uncompressedSize) {
    throw new DatasetProcessingError(
      ProcessingCode.CorruptEntry,
      `"${entry.name}" is damaged: ${data.length} of ${entry.uncompressedSize} bytes could be read.`,
      entry.name,
    );
  }
  if (entry.crc32 !== null && zlib.crc32(data) >>> 0 !== entry.crc32 >>> 0) {
    throw new DatasetProcessingError(ProcessingCode.CrcMismatch, `"${entry.name}" is damaged: its checksum does not match.`, entry.name);
  }
}

interface Opened {
  stream: Readable;
  source: EntrySource;
}

async function readWhole(
  open: (entry: ArchiveEntry) => Promise<Opened>,
  entry: ArchiveEntry,
  maxBytes: number,
): Promise<{ data: Buffer; source: EntrySource }> {
  if (entry.uncompressedSize > maxBytes) {
    throw new DatasetProcessingError(
      ProcessingCode.TooLarge,
      `"${entry.name}" is ${formatBytes(entry.uncompressedSize)}; the limit for one file is ${formatBytes(maxBytes)}.`,
      entry.name,
    );
  }
  const { stream, source } = await open(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { data: Buffer.concat(chunks), source };
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 10 ? 0 : 1)} ${units[unit]}`;
}
