/**
 * The byte-level image rule (ADR 0029): what ultralytics' `verify_image_label` (8.3.166) would make of
 * an image, told from its first bytes and its last bytes only, so that the browser can run it on a
 * multi-gigabyte zip before upload and the server runs the very same function during processing.
 *
 * It follows Pillow's `Image.open` + `verify()` as the client calls them: the format comes from the
 * bytes (not the suffix), the size from the header (EXIF rotation 6/8 swaps it, as `exif_size`), sides
 * under 10 px are refused, formats outside `IMG_FORMATS` (GIF) are refused, and a JPEG that does not end
 * with its end marker is restored by the client when an end marker lies before the trailing bytes, and
 * dropped ("image file is truncated") when there is none.
 *
 * Bounded cost: at most `IMAGE_HEAD_MAX` bytes from the start and `IMAGE_TAIL_MAX` from the end are
 * ever looked at. Callers may start with fewer (the browser reads 16 KB and 16 bytes) and give more
 * when the answer is `{ needMore }`; the verdict depends only on bytes within those windows, so the
 * browser and the server reach the same verdict for the same file.
 */
import { ProcessingCode } from './errors.js';
import { issue, type Issue } from './types.js';

/** Most bytes read from an image's start: JPEG headers with EXIF and ICC profiles fit easily. */
export const IMAGE_HEAD_MAX = 256 * 1024;
/** Most bytes read from an image's end, to find a JPEG end marker before trailing bytes or PNG's IEND. */
export const IMAGE_TAIL_MAX = 64 * 1024;
/** What a caller reads first; most images are decided with this. */
export const IMAGE_HEAD_FIRST = 16 * 1024;
export const IMAGE_TAIL_FIRST = 16;
/** ultralytics refuses images under 10 px a side (`verify_image_label`). */
export const MIN_IMAGE_SIDE = 10;

/**
 * Bytes of one image: `head` is its first `head.length` bytes, `tail` its last `tail.length` bytes
 * (either may be the whole file), `size` its full length.
 */
export interface ImageSample {
  size: number;
  head: Uint8Array;
  tail: Uint8Array;
  /** The end could not be read (a large compressed entry in the browser): end-marker checks are skipped. */
  endUnknown?: boolean;
}

export interface ImageVerdict {
  needMore?: undefined;
  /** False when ultralytics would drop the image; `issues` holds the one error saying why. */
  ok: boolean;
  /** Format found in the bytes: `jpeg`, `png`, `bmp`, `webp`, `tiff`, ..., null when unknown. */
  format: string | null;
  /** Displayed size (EXIF rotation applied); null when the header could not be read within the window. */
  width: number | null;
  height: number | null;
  /** The JPEG ends in bytes after its end marker: ultralytics re-saves it ("corrupt JPEG restored and saved"). */
  restored: boolean;
  issues: Issue[];
}

export interface NeedMore {
  needMore: { head: number; tail: number };
}

/** Where the head and tail windows come from for a file held whole in memory (the server). */
export function sampleOf(data: Uint8Array): ImageSample {
  return { size: data.length, head: data.subarray(0, Math.min(data.length, IMAGE_HEAD_MAX)), tail: data.subarray(Math.max(0, data.length - IMAGE_TAIL_MAX)) };
}

/** Formats Pillow 9 opens here that ultralytics trains on but whose bytes this rule does not read. */
const UNVERIFIABLE = new Set(['heic', 'heif', 'pfm', 'dng']);

/**
 * Decides on one image. `file` is the archive entry name (for the issues), `suffix` its lower-case
 * extension (only used to word the message for formats this rule cannot read).
 */
export function inspectImageBytes(sample: ImageSample, file: string, suffix = ''): ImageVerdict | NeedMore {
  const { head, size } = sample;
  const headLimit = Math.min(size, IMAGE_HEAD_MAX);
  const wantHead = (n: number): NeedMore | null =>
    head.length < Math.min(n, headLimit) ? { needMore: { head: Math.min(Math.max(n, head.length * 4), headLimit), tail: sample.tail.length } } : null;
  const early = wantHead(32);
  if (early) return early;
  const b = head;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return inspectJpeg(sample, file);
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
    return inspectPng(sample, file);
  if (b[0] === 0x42 && b[1] === 0x4d) return inspectBmp(sample, file);
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return inspectWebp(sample, file);
  if ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0x00) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && b[3] === 0x2a))
    return inspectTiff(sample, file);
  if (ascii(b, 0, 4) === 'GIF8')
    return dropped(
      file,
      ProcessingCode.ImageUnsupportedFormat,
      'gif',
      'The file is a GIF; ultralytics does not train on GIF images. Convert it to JPEG or PNG.',
    );
  if (UNVERIFIABLE.has(suffix)) {
    return {
      ok: true,
      format: null,
      width: null,
      height: null,
      restored: false,
      issues: [issue('warning', ProcessingCode.ImageUnverified, `Could not check this ${suffix.toUpperCase()} image here; it is kept as is.`, file)],
    };
  }
  return dropped(
    file,
    ProcessingCode.ImageCorrupt,
    null,
    'The file is not an image ultralytics can read ("cannot identify image file"). Is it damaged or not really an image?',
  );
}

function dropped(file: string, code: string, format: string | null, message: string, size?: { width: number; height: number }): ImageVerdict {
  return { ok: false, format, width: size?.width ?? null, height: size?.height ?? null, restored: false, issues: [issue('error', code, message, file)] };
}

/** The header was not reached within the window: kept, as the client would keep a good image. */
function unverified(file: string, format: string): ImageVerdict {
  return {
    ok: true,
    format,
    width: null,
    height: null,
    restored: false,
    issues: [
      issue(
        'warning',
        ProcessingCode.ImageUnverified,
        `The ${format.toUpperCase()} header is longer than ${IMAGE_HEAD_MAX / 1024} KB; its size was not checked, the image is kept.`,
        file,
      ),
    ],
  };
}

function sized(file: string, format: string, width: number, height: number, issues: Issue[] = [], restored = false): ImageVerdict {
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
    return dropped(file, ProcessingCode.ImageTooSmall, format, `The image is ${width}×${height} px; ultralytics needs at least ${MIN_IMAGE_SIDE} px a side.`, {
      width,
      height,
    });
  }
  return { ok: true, format, width, height, restored, issues };
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32be = (b: Uint8Array, at: number) => b[at] * 0x1000000 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
const i32le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);

/** Asks for more of the head when `need` bytes are not there yet and more exist within the window. */
function moreHead(sample: ImageSample, need: number): NeedMore | 'window' | 'eof' | null {
  if (need <= sample.head.length) return null;
  const limit = Math.min(sample.size, IMAGE_HEAD_MAX);
  if (sample.head.length < limit) return { needMore: { head: Math.min(limit, Math.max(need, sample.head.length * 4)), tail: sample.tail.length } };
  return sample.head.length >= sample.size ? 'eof' : 'window';
}

function moreTail(sample: ImageSample): NeedMore | null {
  const limit = Math.min(sample.size, IMAGE_TAIL_MAX);
  return sample.tail.length < limit ? { needMore: { head: sample.head.length, tail: limit } } : null;
}

// ---------------------------------------------------------------------------------------------
// JPEG: Pillow's JpegImageFile._open marker walk, then the end-marker rule of verify_image_label

/** Markers with a length field and no other meaning to this rule (Pillow's `Skip`, DQT, DHT, COM, APPn). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function inspectJpeg(sample: ImageSample, file: string): ImageVerdict | NeedMore {
  const b = sample.head;
  let pos = 3;
  let s = 0xff;
  let width = 0;
  let height = 0;
  let orientation = 0;
  let scanAt = -1;
  const truncatedHeader = () => dropped(file, ProcessingCode.ImageCorrupt, 'jpeg', 'The JPEG header is cut short or damaged ("cannot identify image file").');
  for (;;) {
    if (s !== 0xff) {
      // Pillow skips bytes that are not 0xFF between markers.
      const more = moreHead(sample, pos + 1);
      if (more === 'eof') return truncatedHeader();
      if (more === 'window') return unverified(file, 'jpeg');
      if (more) return more;
      s = b[pos++];
      continue;
    }
    const more = moreHead(sample, pos + 1);
    if (more === 'eof') return truncatedHeader();
    if (more === 'window') return unverified(file, 'jpeg');
    if (more) return more;
    const m = b[pos++];
    if (m >= 0xc0 && m <= 0xfe) {
      if ((m >= 0xd0 && m <= 0xd9) || m === 0xd8) {
        // RSTn, SOI, EOI: no length.
      } else {
        const lenMore = moreHead(sample, pos + 2);
        if (lenMore === 'eof') return truncatedHeader();
        if (lenMore === 'window') return unverified(file, 'jpeg');
        if (lenMore) return lenMore;
        const length = u16be(b, pos);
        if (length < 2) return truncatedHeader();
        const segMore = moreHead(sample, pos + length);
        if (segMore === 'eof') return truncatedHeader();
        if (segMore === 'window') return unverified(file, 'jpeg');
        if (segMore) return segMore;
        // The segment is read in place (no view per segment: every image of an upload comes here, ADR 0042).
        const seg = pos + 2;
        const segLength = length - 2;
        if (isSof(m)) {
          if (segLength < 6) return truncatedHeader();
          if (b[seg] !== 8)
            return dropped(file, ProcessingCode.ImageCorrupt, 'jpeg', `The JPEG has ${b[seg]}-bit samples; ultralytics (Pillow) reads 8-bit JPEGs only.`);
          if (![1, 3, 4].includes(b[seg + 5]))
            return dropped(file, ProcessingCode.ImageCorrupt, 'jpeg', `The JPEG has ${b[seg + 5]} colour components; Pillow cannot read it.`);
          height = u16be(b, seg + 1);
          width = u16be(b, seg + 3);
        } else if (m === 0xe1 && orientation === 0 && segLength >= 6 && ascii(b, seg, 6) === 'Exif\0\0') {
          orientation = exifOrientation(b.subarray(seg + 6, pos + length));
        }
        pos += length;
        if (m === 0xda) {
          scanAt = pos;
          break;
        }
      }
      const next = moreHead(sample, pos + 1);
      if (next === 'eof') return truncatedHeader();
      if (next === 'window') return unverified(file, 'jpeg');
      if (next) return next;
      s = b[pos++];
    } else if (m === 0xff) {
      s = 0xff; // fill byte
    } else if (m === 0x00) {
      const next = moreHead(sample, pos + 1);
      if (next === 'eof') return truncatedHeader();
      if (next === 'window') return unverified(file, 'jpeg');
      if (next) return next;
      s = b[pos++];
    } else {
      return dropped(file, ProcessingCode.ImageCorrupt, 'jpeg', 'The JPEG header is damaged ("no marker found"): the file cannot be read.');
    }
  }
  if (orientation === 6 || orientation === 8) [width, height] = [height, width];
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) return sized(file, 'jpeg', width, height);

  // The end marker: verify_image_label re-saves a JPEG whose last two bytes are not FF D9. That works
  // when an end marker comes before trailing bytes, and fails ("image file is truncated") without one.
  const t = sample.tail;
  if (sample.endUnknown) return sized(file, 'jpeg', width, height);
  if (sample.size >= 2 && t.length >= 2 && t[t.length - 2] === 0xff && t[t.length - 1] === 0xd9) return sized(file, 'jpeg', width, height);
  const more = moreTail(sample);
  if (more) return more;
  const tailStart = sample.size - t.length;
  for (let i = t.length - 2; i >= 0 && tailStart + i >= scanAt; i--) {
    if (t[i] === 0xff && t[i + 1] === 0xd9) {
      const extra = t.length - i - 2;
      return sized(
        file,
        'jpeg',
        width,
        height,
        [
          issue(
            'warning',
            ProcessingCode.ImageTruncated,
            `The JPEG has ${extra} ${extra === 1 ? 'byte' : 'bytes'} after its end marker; ultralytics restores it when training ("corrupt JPEG restored and saved"). It is kept.`,
            file,
          ),
        ],
        true,
      );
    }
  }
  return dropped(
    file,
    ProcessingCode.ImageTruncated,
    'jpeg',
    'The JPEG is cut short: it has no end marker, so ultralytics cannot read it ("image file is truncated").',
    { width, height },
  );
}

/** EXIF orientation (tag 274) from the TIFF block of an APP1 segment; 0 when absent or unreadable. */
function exifOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 0;
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!le && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 0;
  const u16 = (at: number) => (le ? u16le(tiff, at) : u16be(tiff, at));
  const u32 = (at: number) => (le ? u32le(tiff, at) : u32be(tiff, at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 0;
  const count = u16(ifd);
  for (let k = 0; k < count; k++) {
    const at = ifd + 2 + k * 12;
    if (at + 12 > tiff.length) return 0;
    if (u16(at) === 0x0112) return u16(at + 8);
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// PNG: IHDR first (Pillow's _open), IEND at the end (Pillow's verify reads up to it)

const IEND = [0x49, 0x45, 0x4e, 0x44];

function inspectPng(sample: ImageSample, file: string): ImageVerdict | NeedMore {
  const b = sample.head;
  const more = moreHead(sample, 33);
  if (more === 'eof' || more === 'window') return dropped(file, ProcessingCode.ImageCorrupt, 'png', 'The PNG header is cut short; the file is damaged.');
  if (more) return more;
  if (ascii(b, 12, 4) !== 'IHDR' || u32be(b, 8) !== 13)
    return dropped(file, ProcessingCode.ImageCorrupt, 'png', 'The PNG does not start with its IHDR header; the file is damaged.');
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) return sized(file, 'png', width, height);
  const t = sample.tail;
  if (sample.endUnknown) return sized(file, 'png', width, height);
  const endsWithIend = t.length >= 8 && IEND.every((c, k) => t[t.length - 8 + k] === c);
  if (endsWithIend) return sized(file, 'png', width, height);
  const tailMore = moreTail(sample);
  if (tailMore) return tailMore;
  for (let i = t.length - 8; i >= 0; i--) {
    if (IEND.every((c, k) => t[i + k] === c) && sample.size - t.length + i >= 33) return sized(file, 'png', width, height);
  }
  return dropped(file, ProcessingCode.ImageTruncated, 'png', 'The PNG is cut short (no IEND chunk); the file is damaged.', { width, height });
}

// ---------------------------------------------------------------------------------------------
// BMP, WebP, TIFF: their headers give the size

function inspectBmp(sample: ImageSample, file: string): ImageVerdict | NeedMore {
  const more = moreHead(sample, 26);
  if (more === 'eof' || more === 'window') return dropped(file, ProcessingCode.ImageCorrupt, 'bmp', 'The BMP file is truncated.');
  if (more) return more;
  const b = sample.head;
  const headerSize = u32le(b, 14);
  if (headerSize === 12) return sized(file, 'bmp', u16le(b, 18), u16le(b, 20));
  if (headerSize < 40)
    return dropped(file, ProcessingCode.ImageCorrupt, 'bmp', `The BMP header (${headerSize} bytes) is not one Pillow reads; the file is damaged.`);
  return sized(file, 'bmp', Math.abs(i32le(b, 18)), Math.abs(i32le(b, 22)));
}

function inspectWebp(sample: ImageSample, file: string): ImageVerdict | NeedMore {
  const more = moreHead(sample, 30);
  if (more === 'eof' || more === 'window') return dropped(file, ProcessingCode.ImageCorrupt, 'webp', 'The WebP file is truncated.');
  if (more) return more;
  const b = sample.head;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    if (!(b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)) return dropped(file, ProcessingCode.ImageCorrupt, 'webp', 'The WebP frame header is damaged.');
    return sized(file, 'webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return dropped(file, ProcessingCode.ImageCorrupt, 'webp', 'The lossless WebP header is damaged.');
    const bits = u32le(b, 21);
    return sized(file, 'webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized(file, 'webp', (b[24] | (b[25] << 8) | (b[26] << 16)) + 1, (b[27] | (b[28] << 8) | (b[29] << 16)) + 1);
  return dropped(file, ProcessingCode.ImageCorrupt, 'webp', `The WebP holds an unknown "${chunk}" chunk first; the file is damaged.`);
}

function inspectTiff(sample: ImageSample, file: string): ImageVerdict | NeedMore {
  const b = sample.head;
  const le = b[0] === 0x49;
  const u16 = (at: number) => (le ? u16le(b, at) : u16be(b, at));
  const u32 = (at: number) => (le ? u32le(b, at) : u32be(b, at));
  const ifd = u32(4);
  const countMore = moreHead(sample, ifd + 2);
  if (countMore === 'eof')
    return dropped(file, ProcessingCode.ImageCorrupt, 'tiff', 'The TIFF directory lies beyond the end of the file; the file is damaged.');
  if (countMore === 'window') return unverified(file, 'tiff');
  if (countMore) return countMore;
  const count = u16(ifd);
  const entriesMore = moreHead(sample, ifd + 2 + count * 12);
  if (entriesMore === 'eof') return dropped(file, ProcessingCode.ImageCorrupt, 'tiff', 'The TIFF directory is cut short; the file is damaged.');
  if (entriesMore === 'window') return unverified(file, 'tiff');
  if (entriesMore) return entriesMore;
  let width = 0;
  let height = 0;
  for (let k = 0; k < count; k++) {
    const at = ifd + 2 + k * 12;
    const tag = u16(at);
    const type = u16(at + 2);
    const value = type === 3 ? u16(at + 8) : u32(at + 8);
    if (tag === 256) width = value;
    else if (tag === 257) height = value;
  }
  return sized(file, 'tiff', width, height);
}
