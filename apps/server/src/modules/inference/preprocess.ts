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

/**
 * The geometry of ultralytics' val loader with `rect=False` (`BaseDataset.load_image` then `LetterBox(scaleup=False)`):
 * the long side is resized to the target with `ceil()` on both sides (small images are enlarged too), then padded.
 * Predict rounds instead, so the two differ by a pixel for some sizes.
 */
export function valLetterboxGeometry(width: number, height: number, target: [number, number]): LetterboxGeometry {
  const [th, tw] = target;
  const r = Math.min(th / height, tw / width);
  const nw = r === 1 ? width : Math.min(Math.ceil(width * r), tw);
  const nh = r === 1 ? height : Math.min(Math.ceil(height * r), th);
  const dw = (tw - nw) / 2;
  const dh = (th - nh) / 2;
  const top = pyRound(dh - 0.1);
  const bottom = pyRound(dh + 0.1);
  const left = pyRound(dw - 0.1);
  const right = pyRound(dw + 0.1);
  return { scale: r, resized: { width: nw, height: nh }, pad: { left, top, right, bottom }, output: { width: nw + left + right, height: nh + top + bottom } };
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

/** `v / 255` for every byte, as float32: a table read instead of a division per value (same results). */
const UNIT = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/**
 * HWC uint8 RGB → NCHW float32 in [0, 1], the layout and scaling of every ultralytics ONNX export.
 * `into`: a tensor buffer to reuse (every value is written); a new one when absent or of another size.
 */
export function toChwFloat(img: RgbImage, into?: Float32Array): Float32Array {
  const plane = img.width * img.height;
  const out = into?.length === 3 * plane ? into : new Float32Array(3 * plane);
  const src = img.data;
  for (let i = 0, p = 0; p < plane; p++, i += 3) {
    out[p] = UNIT[src[i]];
    out[plane + p] = UNIT[src[i + 1]];
    out[2 * plane + p] = UNIT[src[i + 2]];
  }
  return out;
}

/**
 * {@link letterboxImage} then {@link toChwFloat} in one pass: the resized pixels go straight into the NCHW
 * tensor and only the padding is filled, so no padded HWC image is made. Same values, byte for byte.
 */
export function letterboxToChw(img: RgbImage, geo: LetterboxGeometry, into?: Float32Array): Float32Array {
  const { width: nw, height: nh } = geo.resized;
  const resized = nw === img.width && nh === img.height ? img.data : resizeLinearCv2(img.data, img.width, img.height, nw, nh, 3);
  const { width: ow, height: oh } = geo.output;
  const plane = ow * oh;
  const out = into?.length === 3 * plane ? into : new Float32Array(3 * plane);
  const pad = UNIT[LETTERBOX_PAD_VALUE];
  const { left, top } = geo.pad;
  const g = plane;
  const b = 2 * plane;
  for (let c = 0; c < 3; c++) {
    const base = c * plane;
    out.fill(pad, base, base + top * ow);
    out.fill(pad, base + (top + nh) * ow, base + plane);
  }
  // One pass over the resized pixels writing the three planes (three passes read every pixel three times).
  for (let y = 0; y < nh; y++) {
    const row = (y + top) * ow;
    if (left > 0) {
      out.fill(pad, row, row + left);
      out.fill(pad, g + row, g + row + left);
      out.fill(pad, b + row, b + row + left);
    }
    const end = row + left + nw;
    if (end < row + ow) {
      out.fill(pad, end, row + ow);
      out.fill(pad, g + end, g + row + ow);
      out.fill(pad, b + end, b + row + ow);
    }
    for (let s = y * nw * 3, d = row + left; d < end; s += 3, d++) {
      out[d] = UNIT[resized[s]];
      out[g + d] = UNIT[resized[s + 1]];
      out[b + d] = UNIT[resized[s + 2]];
    }
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

/**
 * Applies {@link classifyGeometry} with Pillow's antialiased bilinear resize, as torchvision does on PIL images.
 * Only the part of the resized image inside the crop is computed.
 */
export function classifyImage(img: RgbImage, geo: ClassifyGeometry): RgbImage {
  const { width: rw, height: rh } = geo.resized;
  const { left, top, width: cw, height: ch } = geo.crop;
  // The crop clipped to the resized image; CenterCrop pads with zeros outside it (only for non-square targets).
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(rw, left + cw);
  const y1 = Math.min(rh, top + ch);
  const inside = resizeBilinearPil(img.data, img.width, img.height, rw, rh, 3, { left: x0, top: y0, width: x1 - x0, height: y1 - y0 });
  if (x0 === left && y0 === top && x1 - x0 === cw && y1 - y0 === ch) return { data: inside, width: cw, height: ch };
  const out = new Uint8Array(cw * ch * 3);
  const rowBytes = (x1 - x0) * 3;
  for (let y = y0; y < y1; y++) out.set(inside.subarray((y - y0) * rowBytes, (y - y0 + 1) * rowBytes), ((y - top) * cw + (x0 - left)) * 3);
  return { data: out, width: cw, height: ch };
}

/**
 * {@link classifyImage} then {@link toChwFloat} in one pass (ADR 0041): the resize's vertical pass writes the
 * cropped window straight into the NCHW tensor, so no resized or cropped image is made. Same values, byte for byte.
 * A crop reaching outside the resized image (zero padding, non-square targets only) takes the two-step path.
 */
export function classifyToChw(img: RgbImage, geo: ClassifyGeometry, into?: Float32Array): Float32Array {
  const { width: rw, height: rh } = geo.resized;
  const { left, top, width: cw, height: ch } = geo.crop;
  if (left < 0 || top < 0 || left + cw > rw || top + ch > rh) return toChwFloat(classifyImage(img, geo), into);
  const out = into?.length === 3 * cw * ch ? into : new Float32Array(3 * cw * ch);
  resizeBilinearPil(img.data, img.width, img.height, rw, rh, 3, { left, top, width: cw, height: ch }, { out, unit: UNIT });
  return out;
}
