import { sharp } from '../../platform/images/sharp.js';
import { InferenceError } from './errors.js';
import type { RgbImage } from './preprocess.js';

export interface DecodeOptions {
  /** Refuse images with more pixels than this (decompression bombs). Default 8192 * 8192. */
  maxPixels?: number;
}

export const DEFAULT_MAX_PIXELS = 8192 * 8192;

/**
 * Decodes JPEG, PNG, WebP (and anything else libvips reads) to 8-bit RGB, matching what `cv2.imread` hands
 * ultralytics: EXIF orientation applied, alpha dropped (not composited), embedded ICC profiles ignored, first frame
 * of animations.
 */
export async function decodeImage(input: Uint8Array, opts: DecodeOptions = {}): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(input, {
      autoOrient: true,
      ignoreIcc: true,
      limitInputPixels: opts.maxPixels ?? DEFAULT_MAX_PIXELS,
      // Truncated JPEGs still decode in OpenCV; only refuse data libvips calls an error.
      failOn: 'error',
    })
      .removeAlpha()
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  } catch (err) {
    throw new InferenceError('invalid_image', `Could not decode image: ${(err as Error).message}`, { cause: err });
  }
}
