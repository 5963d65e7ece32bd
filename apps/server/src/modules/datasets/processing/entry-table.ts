/**
 * An archive's listing as columns (ADR 0042): every name in one byte pool, sizes, offsets, CRCs,
 * methods and flags in typed arrays, so that listing an archive of 100,000s of entries keeps no object
 * or string per entry in the JS heap (V8's young generation grew to its maximum under the entry
 * objects that survived its collections). An `ArchiveEntry` object, or a name string, is made when
 * one entry is asked for: read, named in a report, or looked at by the layout code, which reads the
 * names through `name(position)` (`LayoutEntryTable`).
 */
import type { LayoutEntryTable } from '@sightline/contracts/dataset-layout';
import { DatasetProcessingError, ProcessingCode } from './errors.js';

export type ArchiveFormat = 'zip' | 'tar';

/** One entry as listed, before any of its bytes are read. */
export interface ArchiveEntry {
  /** Its place in the listing (archive order): what the reader's methods take. */
  position: number;
  /** Normalised, safe, `/`-separated relative name; directories have no trailing slash. */
  name: string;
  isDirectory: boolean;
  /** Symlinks, hard links and device nodes: listed so callers can say they were skipped. */
  isLink: boolean;
  /** Set when the entry is a kind we cannot read (a GNU sparse tar entry): what it is, for the report. */
  unsupported?: string;
  encrypted: boolean;
  compressedSize: number;
  uncompressedSize: number;
  /** Zip compression method (0 stored, 8 deflate, others unsupported); always 0 for tar. */
  compressionMethod: number;
  /** Zip CRC-32 from the central directory; null for tar. */
  crc32: number | null;
  /** Zip: offset of the local file header. Tar: offset of the entry's header block. */
  headerOffset: number;
}

/** The listing as the reader gives it: columns read by position, objects made on request. */
export interface ArchiveEntries extends LayoutEntryTable {
  readonly count: number;
  name(position: number): string;
  isDirectory(position: number): boolean;
  isLink(position: number): boolean;
  /** What an entry we cannot read is (a GNU sparse file), or undefined. */
  unsupported(position: number): string | undefined;
  uncompressedSize(position: number): number;
  headerOffset(position: number): number;
  /** One entry as an object, made now. */
  entry(position: number): ArchiveEntry;
  /** Every entry as objects, in archive order: for small archives and tests, never for an upload's whole listing. */
  toArray(): ArchiveEntry[];
}

/** Entry flags, one byte per entry. */
export const EntryFlag = { Directory: 1, Link: 2, Encrypted: 4, Sparse: 8, Named: 16 } as const;

/** Smallest zip local header: signature, fields and no name (so an overlap test can never misfire). */
export const LOCAL_HEADER_MIN = 30;
/** What `extentEnd` allows for a zip local header's extra field. */
const LOCAL_EXTRA_ALLOWANCE = 1024;

/**
 * A column of sizes or offsets: 4 bytes an entry while every value fits, 8 from the first that does
 * not (zip64, tar entries past 4 GiB).
 */
type WideColumn = Uint32Array | Float64Array;

function put(column: WideColumn, i: number, value: number): WideColumn {
  if (value > 0xffffffff && column instanceof Uint32Array) column = Float64Array.from(column);
  column[i] = value;
  return column;
}

/** Names in the pool above this many bytes: the archive is refused (500,000 entries of 1 KB names). */
const MAX_NAME_BYTES = 512 * 1024 * 1024;

export class EntryTable implements ArchiveEntries {
  count = 0;
  private pool: Buffer;
  private poolUsed = 0;
  /** Where name `i` ends in the pool; it starts where name `i - 1` ends. */
  private nameEnd: Uint32Array;
  private flags: Uint8Array;
  private method: Uint16Array;
  private crc: Uint32Array;
  private compressed: WideColumn;
  private uncompressed: WideColumn;
  private header: WideColumn;
  /** Tar: where each entry's data starts (zip finds it in the local header). */
  private data: WideColumn | null;
  /** Open-addressing table of the positions of named files, for `claimName`'s duplicate check; dropped by `seal`. */
  private slots: Int32Array | null = null;

  constructor(
    readonly format: ArchiveFormat,
    capacity: number,
  ) {
    const n = Math.max(16, capacity);
    this.pool = Buffer.allocUnsafe(n * 32);
    this.nameEnd = new Uint32Array(n);
    this.flags = new Uint8Array(n);
    this.method = new Uint16Array(n);
    this.crc = new Uint32Array(format === 'zip' ? n : 0);
    this.compressed = new Uint32Array(n);
    this.uncompressed = new Uint32Array(n);
    this.header = new Uint32Array(n);
    this.data = format === 'tar' ? new Uint32Array(n) : null;
    this.rehash(n);
  }

  /** Appends the next entry's name as bytes (already in normal form, UTF-8). */
  writeNameBytes(source: Buffer, start: number, end: number): void {
    this.reserveName(end - start);
    source.copy(this.pool, this.poolUsed, start, end);
    this.poolUsed += end - start;
  }

  /** Appends the next entry's name. */
  writeName(name: string): void {
    const length = Buffer.byteLength(name, 'utf8');
    this.reserveName(length);
    this.pool.write(name, this.poolUsed, length, 'utf8');
    this.poolUsed += length;
  }

  /** Adds an entry whose name was just written; returns its position. */
  push(flags: number, method: number, crc32: number, compressedSize: number, uncompressedSize: number, headerOffset: number, dataOffset = 0): number {
    const i = this.count;
    if (i === this.flags.length) this.grow(i * 2);
    this.nameEnd[i] = this.poolUsed;
    this.flags[i] = flags;
    this.method[i] = method;
    if (this.format === 'zip') this.crc[i] = crc32;
    this.compressed = put(this.compressed, i, compressedSize);
    this.uncompressed = put(this.uncompressed, i, uncompressedSize);
    this.header = put(this.header, i, headerOffset);
    if (this.data) this.data = put(this.data, i, dataOffset);
    this.count++;
    return i;
  }

  /**
   * Records the entry at `position` as a file whose name must be unique, or returns the position of an
   * earlier one of the same name (name bytes compared in the pool: no string made).
   */
  claimName(position: number): number {
    if (!this.slots) throw new Error('The listing is sealed');
    const slots = this.slots;
    const mask = slots.length - 1;
    const hash = this.hashAt(position);
    let slot = hash & mask;
    for (; slots[slot] !== -1; slot = (slot + 1) & mask) if (this.sameName(slots[slot], position)) return slots[slot];
    slots[slot] = position;
    this.flags[position] |= EntryFlag.Named;
    return -1;
  }

  /** The listing is complete: the duplicate table goes, the columns keep their length. */
  seal(): void {
    this.slots = null;
  }

  name(position: number): string {
    return this.pool.toString('utf8', this.nameStart(position), this.nameEnd[position]);
  }
  isDirectory(position: number): boolean {
    return (this.flags[position] & EntryFlag.Directory) !== 0;
  }
  isLink(position: number): boolean {
    return (this.flags[position] & EntryFlag.Link) !== 0;
  }
  encrypted(position: number): boolean {
    return (this.flags[position] & EntryFlag.Encrypted) !== 0;
  }
  unsupported(position: number): string | undefined {
    return this.flags[position] & EntryFlag.Sparse ? 'a GNU sparse file' : undefined;
  }
  compressedSize(position: number): number {
    return this.compressed[position];
  }
  uncompressedSize(position: number): number {
    return this.uncompressed[position];
  }
  compressionMethod(position: number): number {
    return this.method[position];
  }
  crc32(position: number): number | null {
    return this.format === 'zip' ? this.crc[position] : null;
  }
  headerOffset(position: number): number {
    return this.header[position];
  }
  dataOffset(position: number): number {
    return this.data ? this.data[position] : -1;
  }

  /**
   * Where the entry's bytes end in the file. Tar: exactly. Zip: estimated from the central directory
   * (its local header's name taken as long as the listed name, its extra field as at most
   * `LOCAL_EXTRA_ALLOWANCE` bytes).
   */
  extentEnd(position: number): number {
    if (this.data) return this.data[position] + this.uncompressed[position];
    return this.header[position] + LOCAL_HEADER_MIN + (this.nameEnd[position] - this.nameStart(position)) + LOCAL_EXTRA_ALLOWANCE + this.compressed[position];
  }

  entry(position: number): ArchiveEntry {
    if (!(position >= 0 && position < this.count)) throw new RangeError(`No entry ${position} in a listing of ${this.count}`);
    const unsupported = this.unsupported(position);
    return {
      position,
      name: this.name(position),
      isDirectory: this.isDirectory(position),
      isLink: this.isLink(position),
      ...(unsupported ? { unsupported } : {}),
      encrypted: this.encrypted(position),
      compressedSize: this.compressed[position],
      uncompressedSize: this.uncompressed[position],
      compressionMethod: this.method[position],
      crc32: this.crc32(position),
      headerOffset: this.header[position],
    };
  }

  toArray(): ArchiveEntry[] {
    return Array.from({ length: this.count }, (_, i) => this.entry(i));
  }

  /**
   * Indexes into `positions` (every entry when not given) ordered by their entries' header offsets,
   * ties in the given order; most archives list entries in that order already, which costs one scan.
   */
  byHeaderOffset(positions?: ArrayLike<number>): Int32Array {
    const n = positions ? positions.length : this.count;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const header = this.header;
    const at = positions ? (i: number) => header[positions[i]] : (i: number) => header[i];
    let sorted = true;
    for (let k = 1; k < n && sorted; k++) if (at(k) < at(k - 1)) sorted = false;
    if (!sorted) order.sort((a, b) => at(a) - at(b) || a - b);
    return order;
  }

  private nameStart(position: number): number {
    return position === 0 ? 0 : this.nameEnd[position - 1];
  }

  private reserveName(length: number) {
    const needed = this.poolUsed + length;
    if (needed <= this.pool.length) return;
    if (needed > MAX_NAME_BYTES)
      throw new DatasetProcessingError(ProcessingCode.TooLarge, `The archive's entry names take more than ${MAX_NAME_BYTES / 1024 ** 2} MB, the limit.`);
    const grown = Buffer.allocUnsafe(Math.min(MAX_NAME_BYTES, Math.max(needed, this.pool.length * 2)));
    this.pool.copy(grown, 0, 0, this.poolUsed);
    this.pool = grown;
  }

  private grow(capacity: number) {
    const copy = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      if (a.length === 0) return a;
      const b = make(capacity);
      b.set(a);
      return b;
    };
    const wide = (a: WideColumn): WideColumn => (a instanceof Uint32Array ? copy(a, (n) => new Uint32Array(n)) : copy(a, (n) => new Float64Array(n)));
    this.nameEnd = copy(this.nameEnd, (n) => new Uint32Array(n));
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
    this.method = copy(this.method, (n) => new Uint16Array(n));
    this.crc = copy(this.crc, (n) => new Uint32Array(n));
    this.compressed = wide(this.compressed);
    this.uncompressed = wide(this.uncompressed);
    this.header = wide(this.header);
    if (this.data) this.data = wide(this.data);
    if (this.slots) this.rehash(capacity);
  }

  /** A duplicate table for `capacity` entries, holding the named files so far. */
  private rehash(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    const slots = new Int32Array(size).fill(-1);
    for (let i = 0; i < this.count; i++) {
      if (!(this.flags[i] & EntryFlag.Named)) continue;
      let slot = this.hashAt(i) & (size - 1);
      while (slots[slot] !== -1) slot = (slot + 1) & (size - 1);
      slots[slot] = i;
    }
    this.slots = slots;
  }

  /** FNV-1a over the name's bytes. */
  private hashAt(position: number): number {
    let h = 0x811c9dc5;
    const pool = this.pool;
    for (let i = this.nameStart(position), end = this.nameEnd[position]; i < end; i++) h = Math.imul(h ^ pool[i], 0x01000193);
    return h | 0;
  }

  private sameName(a: number, b: number): boolean {
    const aStart = this.nameStart(a);
    const bStart = this.nameStart(b);
    const length = this.nameEnd[a] - aStart;
    if (this.nameEnd[b] - bStart !== length) return false;
    const pool = this.pool;
    for (let i = 0; i < length; i++) if (pool[aStart + i] !== pool[bStart + i]) return false;
    return true;
  }
}
