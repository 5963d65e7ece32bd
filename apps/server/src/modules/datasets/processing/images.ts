/**
 * Image checks and thumbnails with sharp. Checks read headers only (cheap, no pixel decode): the
 * thumbnail the caller makes next decodes the pixels anyway, so a second full decode here would double
 * the CPU cost of processing for little gain.
 */
import { sharp } from '../../../platform/images/sharp.js';
import { ProcessingCode } from './errors.js';
import { extname } from './paths.js';
import { issue, type Issue } from './types.js';

export interface ImageProbe {
  /** Null when the format could not be checked here (see `image/unverified`). */
  width: number | null;
  height: number | null;
  /** Format found in the bytes (`jpeg`, `png`, `webp`, `tiff`, `bmp`, ...), whatever the file's suffix. */
  format: string | null;
  /** False when the image cannot be used; `issues` says why. */
  ok: boolean;
  issues: Issue[];
}

/** ultralytics refuses images under 10 px a side (`verify_image_label`). */
const MIN_SIDE = 10;
/** Formats ultralytics reads that sharp's prebuilt libvips cannot (HEVC HEIC, PFM, most raw DNG). */
const UNVERIFIABLE = new Set(['heic', 'pfm', 'dng']);

export async function probeImage(data: Buffer, file: string): Promise<ImageProbe> {
  const ext = extname(file);
  const issues: Issue[] = [];
  let width: number | null = null;
  let height: number | null = null;
  let format: string | null = null;

  if (data.length >= 2 && data[0] === 0x42 && data[1] === 0x4d) {
    // sharp has no BMP decoder; the header is simple enough to read here.
    if (data.length < 26) return failed(file, 'The BMP file is truncated.');
    width = Math.abs(data.readInt32LE(18));
    height = Math.abs(data.readInt32LE(22));
    format = 'bmp';
  } else {
    try {
      const meta = await sharp(data, { failOn: 'none' }).metadata();
      // EXIF-rotated photos: ultralytics uses the displayed size (exif_size), and so must the labels.
      width = meta.autoOrient?.width ?? meta.width ?? null;
      height = meta.autoOrient?.height ?? meta.height ?? null;
      format = meta.format ?? null;
    } catch (err) {
      if (UNVERIFIABLE.has(ext)) {
        return {
          width: null,
          height: null,
          format: null,
          ok: true,
          issues: [issue('warning', ProcessingCode.ImageUnverified, `Could not check this ${ext.toUpperCase()} image here; it is kept as is.`, file)],
        };
      }
      return failed(
        file,
        `The image cannot be read (${(err as Error).message.replace(/\s+/g, ' ').slice(0, 160)}). Is the file damaged or not really an image?`,
      );
    }
  }
  if (!width || !height) return failed(file, 'The image has no size in its header; the file is damaged.');
  if (width < MIN_SIDE || height < MIN_SIDE) {
    return {
      width,
      height,
      format,
      ok: false,
      issues: [issue('error', ProcessingCode.ImageTooSmall, `The image is ${width}×${height} px; ultralytics needs at least ${MIN_SIDE} px a side.`, file)],
    };
  }
  if (format === 'jpeg' && !(data[data.length - 2] === 0xff && data[data.length - 1] === 0xd9)) {
    // ultralytics restores such JPEGs with a warning rather than dropping them; so do we.
    issues.push(issue('warning', ProcessingCode.ImageTruncated, 'The JPEG has no end marker (it may be cut short); the visible part is used.', file));
  }
  if (format === 'png' && data.lastIndexOf('IEND', data.length - 4, 'latin1') === -1) {
    return {
      width,
      height,
      format,
      ok: false,
      issues: [issue('error', ProcessingCode.ImageTruncated, 'The PNG is cut short (no IEND chunk); the file is damaged.', file)],
    };
  }
  return { width, height, format, ok: true, issues };
}

function failed(file: string, message: string): ImageProbe {
  return { width: null, height: null, format: null, ok: false, issues: [issue('error', ProcessingCode.ImageCorrupt, message, file)] };
}

export interface ThumbnailOptions {
  /** Longest side in pixels; smaller images are not enlarged. */
  maxSide?: number;
  format?: 'webp' | 'jpeg';
  quality?: number;
}

/**
 * A small preview: EXIF-oriented, at most `maxSide` (256) px on its longest side, baseline JPEG by
 * default. One pipeline, no `metadata()` call first; JPEGs are shrunk on load by libjpeg. Thumbnails dominate processing time, and plain libjpeg at q75 encodes about 4× faster
 * than webp and 7× faster than mozjpeg for a similar size at 256 px (measured in bench/).
 */
export async function makeThumbnail(data: Buffer, options: ThumbnailOptions = {}): Promise<Buffer> {
  const { maxSide = 256, format = 'jpeg', quality = 75 } = options;
  // A JPEG without an Exif block has no orientation to apply and no alpha to flatten: skipping both steps
  // saves about 15% of the thumbnail's CPU.
  const plainJpeg = isJpeg(data) && data.subarray(0, 65536).indexOf('Exif\0\0', 0, 'latin1') === -1;
  let pipeline = sharp(data, { failOn: 'none' });
  if (!plainJpeg) pipeline = pipeline.rotate();
  // After the DCT-domain shrink (a 640×480 JPEG loads at 320×240) what is left is a reduction under 2×: a
  // linear kernel does it with about a third of lanczos3's taps, for about 15% less CPU per preview (measured in
  // bench/, ADR 0043) and no visible difference at 256 px.
  pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true, kernel: 'linear' });
  if (format === 'webp') return pipeline.webp({ quality, effort: 2 }).toBuffer();
  if (!plainJpeg) pipeline = pipeline.flatten({ background: '#ffffff' });
  // Standard Huffman tables (no optimising second pass): ~10% less CPU for ~5% more bytes at 256 px.
  return pipeline.jpeg({ quality, optimiseCoding: false }).toBuffer();
}

function isJpeg(data: Buffer): boolean {
  return data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
}
