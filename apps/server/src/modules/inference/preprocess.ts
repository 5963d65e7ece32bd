import { resizeBilinearPil, resizeLinearCv2 } from './resize.js';

/** An 8-bit RGB image, pixels interleaved row by row (HWC). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Python's `round()`: halves go to the even neighbour. Letterbox sizes depend on it (`round(50.5) == 50`). */
export function pyRound(v: number): number {
  const r = Math.round(v);
  // `+ 0` turns -0 into 0: Python ints have no negative zero.
  return (r - v === 0.5 && r % 2 !== 0 ? r - 1 : r) + 0;
}

export interface LetterboxGeometry {
  /** Gain applied to the source image. */
  scale: number;
  /** Size of the resized image before padding. */
  resized: { width: number; height: number };
  pad: { left: number; top: number; right: number; bottom: number };
  /** Final tensor size, resized plus padding. */
  output: { width: number; height: number };
}

export interface LetterboxOptions {
  /**
   * Pad only up to a multiple of `stride` instead of to the full target (ultralytics `auto=True`, used for
   * dynamic-shape models with `rect`). Fixed-shape models need `false`.
   */
  auto?: boolean;
  stride?: number;
  /** Allow enlarging small images; ultralytics predict does. */
  scaleup?: boolean;
}

/** Ultralytics `LetterBox` geometry (center=True) for an image of `width`x`height` and a target of [h, w]. */
export function letterboxGeometry(width: number, height: number, target: [number, number], opts: LetterboxOptions = {}): LetterboxGeometry {
  const [th, tw] = target;
  let r = Math.min(th / height, tw / width);
  if (opts.scaleup === false) r = Math.min(r, 1);
  const nw = pyRound(width * r);
  const nh = pyRound(height * r);
  let dw = tw - nw;
  let dh = th - nh;
  if (opts.auto) {
    const stride = opts.stride ?? 32;
    dw %= stride;
    dh %= stride;
  }
  dw /= 2;
  dh /= 2;
  const top = pyRound(dh - 0.1);
  const bottom = pyRound(dh + 0.1);
  const left = pyRound(dw - 0.1);
  const right = pyRound(dw + 0.1);
  return {
    scale: r,
    resized: { width: nw, height: nh },
    pad: { left, top, right, bottom },
    output: { width: nw + left + right, height: nh + top + bottom },
  };
}

export const LETTERBOX_PAD_VALUE = 114;

/** Resizes with cv2 INTER_LINEAR semantics and pads with grey 114, returning the letterboxed HWC RGB image. */
export function letterboxImage(img: RgbImage, geo: LetterboxGeometry): RgbImage {
  const { width: nw, height: nh } = geo.resized;
  const resized = nw === img.width && nh === img.height ? img.data : resizeLinearCv2(img.data, img.width, img.height, nw, nh, 3);
  const { width: ow, height: oh } = geo.output;
  const out = new Uint8Array(ow * oh * 3).fill(LETTERBOX_PAD_VALUE);
  const rowBytes = nw * 3;
  for (let y = 0; y < nh; y++) {
    const dst = ((y + geo.pad.top) * ow + geo.pad.left) * 3;
    out.set(resized.subarray(y * rowBytes, (y + 1) * rowBytes), dst);
  }
  return { data: out, width: ow, height: oh };
}

/** HWC uint8 RGB → NCHW float32 in [0, 1], the layout and scaling of every ultralytics ONNX export. */
export function toChwFloat(img: RgbImage): Float32Array {
  const plane = img.width * img.height;
  const out = new Float32Array(3 * plane);
  const src = img.data;
  for (let i = 0, p = 0; p < plane; p++, i += 3) {
    out[p] = src[i] / 255;
    out[plane + p] = src[i + 1] / 255;
    out[2 * plane + p] = src[i + 2] / 255;
  }
  return out;
}

export interface ClassifyGeometry {
  resized: { width: number; height: number };
  crop: { left: number; top: number; width: number; height: number };
}

/**
 * Geometry of ultralytics' `classify_transforms` for predict: torchvision `Resize(size)` (shorter side to `size`,
 * longer side truncated, aspect kept) for a square `imgsz`, or `Resize((h, w))` otherwise, then `CenterCrop`.
 */
export function classifyGeometry(width: number, height: number, target: [number, number]): ClassifyGeometry {
  const [th, tw] = target;
  let rw: number;
  let rh: number;
  if (th === tw) {
    const short = Math.min(width, height);
    const long = Math.max(width, height);
    const newLong = Math.trunc((th * long) / short);
    [rw, rh] = width <= height ? [th, newLong] : [newLong, th];
  } else {
    [rw, rh] = [tw, th];
  }
  // torchvision pads (floor half) before cropping when the image is smaller than the crop.
  const offset = (size: number, crop: number) => (size < crop ? -Math.floor((crop - size) / 2) : pyRound((size - crop) / 2));
  return {
    resized: { width: rw, height: rh },
    crop: { left: offset(rw, tw), top: offset(rh, th), width: tw, height: th },
  };
}

/** Applies {@link classifyGeometry} with Pillow's antialiased bilinear resize, as torchvision does on PIL images. */
export function classifyImage(img: RgbImage, geo: ClassifyGeometry): RgbImage {
  const { width: rw, height: rh } = geo.resized;
  const resized = rw === img.width && rh === img.height ? img.data : resizeBilinearPil(img.data, img.width, img.height, rw, rh, 3);
  const { left, top, width: cw, height: ch } = geo.crop;
  // CenterCrop pads with zeros where the crop leaves the image (only possible for non-square targets).
  const out = new Uint8Array(cw * ch * 3);
  for (let y = 0; y < ch; y++) {
    const sy = y + top;
    if (sy < 0 || sy >= rh) continue;
    for (let x = 0; x < cw; x++) {
      const sx = x + left;
      if (sx < 0 || sx >= rw) continue;
      const s = (sy * rw + sx) * 3;
      const d = (y * cw + x) * 3;
      out[d] = resized[s];
      out[d + 1] = resized[s + 1];
      out[d + 2] = resized[s + 2];
    }
  }
  return { data: out, width: cw, height: ch };
}
