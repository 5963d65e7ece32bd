/**
 * Lists a zip archive's entries from its central directory alone: the End Of Central Directory
 * record is read from the file's tail (File.slice), then the central directory itself. No entry
 * data is read, so a multi-gigabyte archive is listed with a few reads and flat memory.
 *
 * Written by hand rather than with a zip library because listing is all we need (no inflating, no
 * workers) and it has to stay small; zip64 and the Info-ZIP Unicode path field are understood.
 */

export interface ZipListingEntry {
  /** The raw name as stored (`/`-separated by convention; may be unsafe, callers check). */
  name: string;
  isDirectory: boolean;
  encrypted: boolean;
  compressionMethod: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export type ZipListingErrorKind = 'not-a-zip' | 'corrupt' | 'too-large';

export class ZipListingError extends Error {
  constructor(
    readonly kind: ZipListingErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ZipListingError';
  }
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CD_SIG = 0x02014b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
/** A central directory larger than this (about 500,000 entries) is not listed in the browser. */
export const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;

/** Blob.arrayBuffer where there is one, FileReader elsewhere (older Safari, jsdom). */
export function readBuffer(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('Unable to read the file'));
    reader.readAsArrayBuffer(blob);
  });
}

async function read(blob: Blob, start: number, end: number): Promise<DataView> {
  return new DataView(await readBuffer(blob.slice(start, end)));
}

/** 64-bit little-endian as a JS number; archives over 2^53 bytes do not exist in practice. */
const u64 = (view: DataView, at: number) => view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;

// Code page 437, bytes 0x80..0xff: the zip spec's default when the UTF-8 flag is off.
const CP437_HIGH = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■ ';
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeName(bytes: Uint8Array, isUtf8: boolean): string {
  if (isUtf8 || bytes.every((b) => b < 0x80)) return new TextDecoder('utf-8').decode(bytes);
  // Many tools write UTF-8 without setting the flag; only real CP437 falls through.
  try {
    return utf8.decode(bytes);
  } catch {
    let out = '';
    for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
    return out;
  }
}

async function findEndRecord(blob: Blob): Promise<{ view: DataView; at: number; base: number }> {
  if (blob.size < EOCD_MIN) throw new ZipListingError('not-a-zip', 'The file is too small to be a zip archive.');
  const base = Math.max(0, blob.size - (EOCD_MIN + MAX_COMMENT));
  const view = await read(blob, base, blob.size);
  for (let at = view.byteLength - EOCD_MIN; at >= 0; at--) {
    if (view.getUint32(at, true) !== EOCD_SIG) continue;
    // The comment length must reach exactly to the end of the file, or this is a stray signature.
    if (at + EOCD_MIN + view.getUint16(at + 20, true) === view.byteLength) return { view, at, base };
  }
  throw new ZipListingError('not-a-zip', 'No zip end-of-central-directory record: the file is not a zip archive, or it is truncated.');
}

/** Reads the zip's central directory and returns its entries in archive order. */
export async function listZipEntries(blob: Blob): Promise<ZipListingEntry[]> {
  const { view: tail, at, base } = await findEndRecord(blob);
  let entryCount = tail.getUint16(at + 10, true);
  let cdSize = tail.getUint32(at + 12, true);
  let cdOffset = tail.getUint32(at + 16, true);
  const eocdPosition = base + at;

  if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locatorPosition = eocdPosition - 20;
    if (locatorPosition < 0) throw new ZipListingError('corrupt', 'The zip64 locator is missing.');
    const locator = locatorPosition >= base ? new DataView(tail.buffer, locatorPosition - base, 20) : await read(blob, locatorPosition, eocdPosition);
    if (locator.getUint32(0, true) !== ZIP64_LOCATOR_SIG) throw new ZipListingError('corrupt', 'The zip64 locator is missing.');
    const zip64At = u64(locator, 8);
    const record = await read(blob, zip64At, zip64At + 56);
    if (record.byteLength < 56 || record.getUint32(0, true) !== ZIP64_EOCD_SIG)
      throw new ZipListingError('corrupt', 'The zip64 end-of-central-directory record is damaged.');
    entryCount = u64(record, 32);
    cdSize = u64(record, 40);
    cdOffset = u64(record, 48);
  }
  if (cdSize > MAX_CENTRAL_DIRECTORY_BYTES) throw new ZipListingError('too-large', 'The archive lists too many files to check in the browser.');
  if (cdOffset + cdSize > blob.size) throw new ZipListingError('corrupt', 'The central directory lies beyond the end of the file: the archive is truncated.');

  const cd = await read(blob, cdOffset, cdOffset + cdSize);
  const bytes = new Uint8Array(cd.buffer);
  const entries: ZipListingEntry[] = [];
  let p = 0;
  for (let i = 0; i < entryCount; i++) {
    if (p + 46 > cd.byteLength || cd.getUint32(p, true) !== CD_SIG)
      throw new ZipListingError('corrupt', `Central directory entry ${i + 1} of ${entryCount} is damaged.`);
    const flags = cd.getUint16(p + 8, true);
    const method = cd.getUint16(p + 10, true);
    let compressedSize = cd.getUint32(p + 20, true);
    let uncompressedSize = cd.getUint32(p + 24, true);
    const nameLength = cd.getUint16(p + 28, true);
    const extraLength = cd.getUint16(p + 30, true);
    const commentLength = cd.getUint16(p + 32, true);
    let localHeaderOffset = cd.getUint32(p + 42, true);
    const nameStart = p + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > cd.byteLength) throw new ZipListingError('corrupt', `Central directory entry ${i + 1} of ${entryCount} runs past the directory.`);
    let name = decodeName(bytes.subarray(nameStart, extraStart), (flags & 0x800) !== 0);

    for (let e = extraStart; e + 4 <= extraStart + extraLength;) {
      const id = cd.getUint16(e, true);
      const size = cd.getUint16(e + 2, true);
      const data = e + 4;
      if (id === 0x0001) {
        // zip64 extended information: only the fields whose 32-bit value is saturated, in this order.
        let q = data;
        const take = () => {
          const value = q + 8 <= data + size ? u64(cd, q) : 0xffffffff;
          q += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
      } else if (id === 0x7075 && size > 5) {
        name = new TextDecoder('utf-8').decode(bytes.subarray(data + 5, data + size));
      }
      e = data + size;
    }

    entries.push({
      name,
      isDirectory: name.endsWith('/') || name.endsWith('\\'),
      encrypted: (flags & 0x1) !== 0,
      compressionMethod: method,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    p = next;
  }
  return entries;
}
