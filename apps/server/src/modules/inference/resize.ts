/**
 * Bit-faithful ports of the two resamplers ultralytics relies on, for 8-bit interleaved images.
 *
 * - {@link resizeLinearCv2}: `cv2.resize(..., INTER_LINEAR)` of OpenCV 4.x on uint8, used by LetterBox (detect,
 *   segment, pose). OpenCV works in 11-bit fixed point and its x86 SIMD vertical pass rounds differently from a
 *   plain fixed-point formula; that rounding is reproduced so the letterboxed tensor matches OpenCV byte for byte
 *   (checked against the SHA-256s in the golden fixtures, made with OpenCV 4.6). A float bilinear resize would move
 *   scores by ~3e-4.
 * - {@link resizeBilinearPil}: Pillow's `Image.resize(BILINEAR)`, which torchvision's `Resize` calls for the classify
 *   transforms. Unlike OpenCV it antialiases when downscaling (the kernel widens with the scale factor); without
 *   that, classify probabilities move by up to 1e-2.
 */

const f32 = Math.fround;

/** C's `cvRound` on a float: round half to even. */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const COEF_BITS = 11;
const COEF_SCALE = 1 << COEF_BITS;

interface AxisTable {
  /** First source index per destination index (already clamped to the image). */
  ofs: Int32Array;
  /** Fixed-point weights of `ofs` and `ofs + 1`. */
  w0: Int16Array;
  w1: Int16Array;
}

/** OpenCV's resizeGeneric coefficient tables for INTER_LINEAR. */
function cv2Axis(srcSize: number, dstSize: number, clampWeights: boolean): AxisTable {
  // OpenCV derives the scale as 1 / (dst / src), not src / dst; the two can differ in the last bit.
  const scale = 1 / (dstSize / srcSize);
  const ofs = new Int32Array(dstSize);
  const w0 = new Int16Array(dstSize);
  const w1 = new Int16Array(dstSize);
  for (let d = 0; d < dstSize; d++) {
    let f = f32((d + 0.5) * scale - 0.5);
    let s = Math.floor(f);
    f = f32(f - s);
    if (clampWeights) {
      // Horizontal pass: OpenCV snaps out-of-range taps to the edge pixel with weight 1.
      if (s < 0) {
        f = 0;
        s = 0;
      }
      if (s >= srcSize - 1) {
        f = 0;
        s = srcSize - 1;
      }
    }
    ofs[d] = s;
    w0[d] = roundHalfEven(f32(1 - f) * COEF_SCALE);
    w1[d] = roundHalfEven(f * COEF_SCALE);
  }
  return { ofs, w0, w1 };
}

function clampU8(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function sat16(v: number): number {
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

/**
 * `cv2.resize(src, (dstW, dstH), interpolation=cv2.INTER_LINEAR)` for an 8-bit image with `channels` interleaved
 * channels. Returns a new buffer; when the size is unchanged the result is a copy.
 */
export function resizeLinearCv2(src: Uint8Array, srcW: number, srcH: number, dstW: number, dstH: number, channels: number): Uint8Array {
  checkSizes(src, srcW, srcH, dstW, dstH, channels);
  if (srcW === dstW && srcH === dstH) return src.slice();
  const scaleX = 1 / (dstW / srcW);
  const scaleY = 1 / (dstH / srcH);
  // OpenCV switches an exact 2x downscale to INTER_AREA's fast path, which averages 2x2 blocks with rounding.
  if (scaleX === 2 && scaleY === 2) return halveArea(src, srcW, dstW, dstH, channels);

  const cn = channels;
  const rowLen = dstW * cn;
  const hx = cv2Axis(srcW, dstW, true);
  const vy = cv2Axis(srcH, dstH, false);
  const dst = new Uint8Array(rowLen * dstH);

  // Horizontally resized source rows, in OpenCV's 2048-scaled integers; each destination row needs two.
  const cache = new Map<number, Int32Array>();
  const hrow = (sy: number): Int32Array => {
    let row = cache.get(sy);
    if (row) return row;
    if (cache.size >= 4) cache.delete(cache.keys().next().value as number);
    row = new Int32Array(rowLen);
    const base = sy * srcW * cn;
    for (let dx = 0; dx < dstW; dx++) {
      const sx = base + hx.ofs[dx] * cn;
      const a0 = hx.w0[dx];
      const a1 = hx.w1[dx];
      for (let k = 0; k < cn; k++) {
        row[dx * cn + k] = a1 === 0 ? src[sx + k] * a0 : src[sx + k] * a0 + src[sx + cn + k] * a1;
      }
    }
    cache.set(sy, row);
    return row;
  };

  const clipRow = (y: number) => (y < 0 ? 0 : y >= srcH ? srcH - 1 : y);
  for (let dy = 0; dy < dstH; dy++) {
    const s0 = hrow(clipRow(vy.ofs[dy]));
    const s1 = hrow(clipRow(vy.ofs[dy] + 1));
    const b0 = vy.w0[dy];
    const b1 = vy.w1[dy];
    const out = dy * rowLen;
    for (let x = 0; x < rowLen; x++) {
      // VResizeLinearVec_32s8u: v_mul_hi(v_pack(S >> 4), beta), saturating add, v_rshr_pack_u<2>. Its scalar
      // fallback would round as (S0*b0 + S1*b1 + 2^21) >> 22, but the golden hashes show OpenCV 4.6 rounding the
      // whole row the vector way, row widths that are not a multiple of 16 included.
      const m0 = (sat16(s0[x] >> 4) * b0) >> 16;
      const m1 = (sat16(s1[x] >> 4) * b1) >> 16;
      dst[out + x] = clampU8((sat16(m0 + m1) + 2) >> 2);
    }
  }
  return dst;
}

function halveArea(src: Uint8Array, srcW: number, dstW: number, dstH: number, cn: number): Uint8Array {
  const dst = new Uint8Array(dstW * dstH * cn);
  const srcRow = srcW * cn;
  for (let y = 0; y < dstH; y++) {
    const r0 = 2 * y * srcRow;
    const r1 = r0 + srcRow;
    const out = y * dstW * cn;
    for (let x = 0; x < dstW; x++) {
      for (let k = 0; k < cn; k++) {
        const i = 2 * x * cn + k;
        dst[out + x * cn + k] = (src[r0 + i] + src[r0 + i + cn] + src[r1 + i] + src[r1 + i + cn] + 2) >> 2;
      }
    }
  }
  return dst;
}

// Pillow (libImaging/Resample.c) works in 32-bit fixed point with 22 fractional bits for 8-bit images.
const PRECISION_BITS = 32 - 8 - 2;
const PIL_ONE = 2 ** PRECISION_BITS;
const PIL_HALF = 2 ** (PRECISION_BITS - 1);

/**
 * Pillow's coefficients in a fixed-tap layout: every output index reads exactly `taps` inputs from `start[i]`, the
 * taps Pillow does not use carrying weight 0 (a window near the far edge is moved left to stay inside the image and
 * its weights moved right with it). The sums are the same integers, and the loops get a constant trip count.
 */
interface PilCoeffs {
  taps: number;
  start: Int32Array;
  /** Fixed-point weights, `stride` per output index: `taps` of them, then zeros up to {@link UNROLLED_TAPS}. */
  weights: Int32Array;
  stride: number;
}

/** Up to this many taps the RGB passes run unrolled, with the weights in locals (a 640 px image to 224 has 5). */
const UNROLLED_TAPS = 8;

/** Pillow's precompute_coeffs + normalize_coeffs_8bpc for the bilinear (triangle) filter over the full box. */
function computePilCoeffs(inSize: number, outSize: number): PilCoeffs {
  const scale = inSize / outSize;
  const filterscale = Math.max(scale, 1);
  const support = 1.0 * filterscale;
  const ksize = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const kk = new Int32Array(outSize * ksize);
  const w = new Float64Array(ksize);
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const ss = 1.0 / filterscale;
    // C's (int) cast truncates toward zero.
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const t = Math.abs((x + xmin - center + 0.5) * ss);
      w[x] = t < 1 ? 1 - t : 0;
      ww += w[x];
    }
    for (let x = 0; x < xmax; x++) {
      const v = ww !== 0 ? w[x] / ww : w[x];
      kk[xx * ksize + x] = v < 0 ? Math.trunc(-0.5 + v * PIL_ONE) : Math.trunc(0.5 + v * PIL_ONE);
    }
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  let taps = 1;
  for (let xx = 0; xx < outSize; xx++) taps = Math.max(taps, bounds[xx * 2 + 1]);
  const stride = Math.max(taps, UNROLLED_TAPS);
  const start = new Int32Array(outSize);
  const weights = new Int32Array(outSize * stride);
  for (let xx = 0; xx < outSize; xx++) {
    const xmin = bounds[xx * 2];
    const first = Math.min(xmin, inSize - taps);
    start[xx] = first;
    for (let x = 0; x < bounds[xx * 2 + 1]; x++) weights[xx * stride + xmin - first + x] = kk[xx * ksize + x];
  }
  return { taps, start, weights, stride };
}

function clip8(ss: number): number {
  return clampU8(ss >> PRECISION_BITS);
}

/**
 * The coefficient tables of recent (source, destination) sizes: a classify model sees the same few image sizes again
 * and again, and the tables cost as much as a small image's resize. Bounded; the oldest size goes first.
 */
const coeffCache = new Map<string, PilCoeffs>();
const COEFF_CACHE_SIZES = 32;
function pilCoeffs(inSize: number, outSize: number): PilCoeffs {
  const key = `${inSize}:${outSize}`;
  let c = coeffCache.get(key);
  if (!c) {
    c = computePilCoeffs(inSize, outSize);
    if (coeffCache.size >= COEFF_CACHE_SIZES) coeffCache.delete(coeffCache.keys().next().value!);
    coeffCache.set(key, c);
  }
  return c;
}

/**
 * Scratch for the horizontal pass's 8-bit rows, reused across calls (the resize is synchronous, so one is enough):
 * a 640x480 image's pass is ~300 KB, and a fresh one per request was a good part of the classify path's garbage.
 */
let scratch = new Uint8Array(0);
function scratchOf(bytes: number): Uint8Array {
  if (scratch.length < bytes) scratch = new Uint8Array(Math.max(bytes, scratch.length * 2));
  return scratch;
}

/** A rectangle of the resized image, in its pixels. */
export interface ResizeWindow {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where {@link resizeBilinearPil} writes: interleaved bytes (the default), or float32 NCHW planes scaled to [0, 1]
 * (`v / 255`, the tensor of every ultralytics export) so the classify path makes no intermediate image.
 */
export interface ChwSink {
  /** width * height * 3 floats; every value of the window is written. */
  out: Float32Array;
  /** `v / 255` per byte value. */
  unit: Float32Array;
}

/**
 * `PIL.Image.resize((dstW, dstH), Image.BILINEAR)` for an 8-bit image with `channels` interleaved channels:
 * a horizontal then a vertical pass with an 8-bit intermediate, exactly like Pillow 9/10.
 *
 * With `window`, only that part of the resized image is computed and returned (the same bytes as cropping the full
 * result): every output pixel depends only on its own row's and column's coefficients, so a centre crop (classify)
 * skips the rows and columns it would throw away. With `chw` (3 channels), the window is written there as a float
 * tensor instead, and the returned bytes are empty.
 *
 * Sums are int32, as in Pillow: a byte times a weight below 2^22 and weights summing to ~2^22 stay below 2^31, so
 * `| 0` never wraps and `>> 22` is Pillow's shift (the same value as `Math.floor(s / 2^22)`).
 */
export function resizeBilinearPil(
  src: Uint8Array,
  srcW: number,
  srcH: number,
  dstW: number,
  dstH: number,
  channels: number,
  window?: ResizeWindow,
  chw?: ChwSink,
): Uint8Array {
  checkSizes(src, srcW, srcH, dstW, dstH, channels);
  const win = window ?? { left: 0, top: 0, width: dstW, height: dstH };
  const { left, top, width: ww, height: wh } = win;
  if (![left, top, ww, wh].every(Number.isInteger) || left < 0 || top < 0 || ww < 1 || wh < 1 || left + ww > dstW || top + wh > dstH) {
    throw new RangeError(`Window ${ww}x${wh}+${left}+${top} is not inside ${dstW}x${dstH}`);
  }
  if (chw && (channels !== 3 || chw.out.length !== ww * wh * 3)) throw new RangeError('A CHW sink takes 3 channels and exactly the window');
  const cn = channels;
  const vert = dstH !== srcH ? pilCoeffs(srcH, dstH) : null;
  // Only the source rows the vertical pass will read (for the window's rows) need the horizontal pass.
  const first = vert ? vert.start[top] : top;
  const rows = (vert ? vert.start[top + wh - 1] + vert.taps : top + wh) - first;
  const rowLen = ww * cn;
  // The intermediate rows: the result itself when no vertical pass follows, else the reused scratch.
  const tmp = vert || chw ? scratchOf(rowLen * rows) : new Uint8Array(rowLen * rows);
  if (dstW !== srcW) {
    const horiz = pilCoeffs(srcW, dstW);
    if (cn === 3 && horiz.taps <= UNROLLED_TAPS) horizontalRgb(src, srcW, horiz, left, ww, first, rows, tmp);
    else horizontalAny(src, srcW, cn, horiz, left, ww, first, rows, tmp);
  } else {
    for (let y = 0; y < rows; y++) tmp.set(src.subarray(((y + first) * srcW + left) * cn, ((y + first) * srcW + left + ww) * cn), y * rowLen);
  }
  if (!vert) {
    if (!chw) return tmp;
    bytesToChw(tmp, ww, wh, chw);
    return new Uint8Array(0);
  }
  if (chw && vert.taps <= UNROLLED_TAPS) {
    verticalRgbToChw(tmp, ww, vert, top, wh, first, chw);
    return new Uint8Array(0);
  }
  const out = new Uint8Array(rowLen * wh);
  verticalAny(tmp, rowLen, vert, top, wh, first, out);
  if (!chw) return out;
  bytesToChw(out, ww, wh, chw);
  return new Uint8Array(0);
}

/**
 * The horizontal pass over `rows` source rows from `first`, output columns [left, left + ww), any channel count;
 * writes `rows` rows of `ww * cn` bytes to `tmp`.
 */
function horizontalAny(src: Uint8Array, srcW: number, cn: number, c: PilCoeffs, left: number, ww: number, first: number, rows: number, tmp: Uint8Array): void {
  const { taps, start, weights, stride } = c;
  for (let y = 0, o = 0; y < rows; y++) {
    const inRow = (y + first) * srcW * cn;
    for (let xx = left; xx < left + ww; xx++) {
      const k = xx * stride;
      const p0 = inRow + start[xx] * cn;
      for (let ch = 0; ch < cn; ch++) {
        let acc = PIL_HALF;
        for (let t = 0, p = p0 + ch; t < taps; t++, p += cn) acc += src[p] * weights[k + t];
        tmp[o++] = clip8(acc);
      }
    }
  }
}

/**
 * {@link horizontalAny} for RGB and at most {@link UNROLLED_TAPS} taps: a column's weights are loaded once into
 * locals for a band of rows (small enough to stay in the L1 cache), and the taps are unrolled (a test per tap beyond
 * the first, the same for every pixel). About twice as fast as the loop over taps; the same sums.
 */
function horizontalRgb(src: Uint8Array, srcW: number, c: PilCoeffs, left: number, ww: number, first: number, rows: number, tmp: Uint8Array): void {
  const { taps, start, weights, stride } = c;
  const inStride = srcW * 3;
  const outStride = ww * 3;
  for (let y0 = 0; y0 < rows; y0 += BAND_ROWS) {
    const y1 = Math.min(rows, y0 + BAND_ROWS);
    for (let xx = left, o0 = 0; xx < left + ww; xx++, o0 += 3) {
      const k = xx * stride;
      const w0 = weights[k];
      const w1 = weights[k + 1];
      const w2 = weights[k + 2];
      const w3 = weights[k + 3];
      const w4 = weights[k + 4];
      const w5 = weights[k + 5];
      const w6 = weights[k + 6];
      const w7 = weights[k + 7];
      const sx = start[xx] * 3;
      for (let y = y0, p = (y0 + first) * inStride + sx, o = y0 * outStride + o0; y < y1; y++, p += inStride, o += outStride) {
        tmp[o] = clip8(dot8(src, p, 3, taps, w0, w1, w2, w3, w4, w5, w6, w7));
        tmp[o + 1] = clip8(dot8(src, p + 1, 3, taps, w0, w1, w2, w3, w4, w5, w6, w7));
        tmp[o + 2] = clip8(dot8(src, p + 2, 3, taps, w0, w1, w2, w3, w4, w5, w6, w7));
      }
    }
  }
}

/**
 * Pillow's sum for one output value over at most {@link UNROLLED_TAPS} taps `step` bytes apart, the weights in
 * arguments: small enough for V8 to inline into the passes, where `taps` is the same for every pixel.
 */
function dot8(
  a: Uint8Array,
  p: number,
  step: number,
  taps: number,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  w4: number,
  w5: number,
  w6: number,
  w7: number,
): number {
  let s = PIL_HALF + a[p] * w0;
  if (taps > 1) s += a[p + step] * w1;
  if (taps > 2) s += a[p + 2 * step] * w2;
  if (taps > 3) s += a[p + 3 * step] * w3;
  if (taps > 4) s += a[p + 4 * step] * w4;
  if (taps > 5) s += a[p + 5 * step] * w5;
  if (taps > 6) s += a[p + 6 * step] * w6;
  if (taps > 7) s += a[p + 7 * step] * w7;
  return s;
}

/** Rows per band of {@link horizontalRgb}: 16 rows of a 640 px RGB image are 30 KB. */
const BAND_ROWS = 16;

/** The vertical pass from `tmp` (rows from `first`, `rowLen` bytes each) into the window's rows of `out`. */
function verticalAny(tmp: Uint8Array, rowLen: number, c: PilCoeffs, top: number, wh: number, first: number, out: Uint8Array): void {
  const { taps, start, weights, stride } = c;
  for (let yy = top, o = 0; yy < top + wh; yy++) {
    const k = yy * stride;
    const r0 = (start[yy] - first) * rowLen;
    for (let i = 0; i < rowLen; i++) {
      let acc = PIL_HALF;
      for (let t = 0, q = r0 + i; t < taps; t++, q += rowLen) acc += tmp[q] * weights[k + t];
      out[o++] = clip8(acc);
    }
  }
}

/**
 * The vertical pass for RGB and at most {@link UNROLLED_TAPS} taps, written straight into the NCHW float planes:
 * a row's weights and source rows are fixed, so they live in locals and the taps are unrolled.
 */
function verticalRgbToChw(tmp: Uint8Array, ww: number, c: PilCoeffs, top: number, wh: number, first: number, chw: ChwSink): void {
  const { taps, start, weights, stride } = c;
  const { out, unit } = chw;
  const rowLen = ww * 3;
  const plane = ww * wh;
  for (let yy = top; yy < top + wh; yy++) {
    const k = yy * stride;
    const w0 = weights[k];
    const w1 = weights[k + 1];
    const w2 = weights[k + 2];
    const w3 = weights[k + 3];
    const w4 = weights[k + 4];
    const w5 = weights[k + 5];
    const w6 = weights[k + 6];
    const w7 = weights[k + 7];
    const o = (yy - top) * ww;
    for (let x = 0, q = (start[yy] - first) * rowLen; x < ww; x++, q += 3) {
      out[o + x] = unit[clip8(dot8(tmp, q, rowLen, taps, w0, w1, w2, w3, w4, w5, w6, w7))];
      out[plane + o + x] = unit[clip8(dot8(tmp, q + 1, rowLen, taps, w0, w1, w2, w3, w4, w5, w6, w7))];
      out[2 * plane + o + x] = unit[clip8(dot8(tmp, q + 2, rowLen, taps, w0, w1, w2, w3, w4, w5, w6, w7))];
    }
  }
}

function bytesToChw(src: Uint8Array, w: number, h: number, chw: ChwSink): void {
  const plane = w * h;
  const { out, unit } = chw;
  for (let p = 0, i = 0; p < plane; p++, i += 3) {
    out[p] = unit[src[i]];
    out[plane + p] = unit[src[i + 1]];
    out[2 * plane + p] = unit[src[i + 2]];
  }
}

function checkSizes(src: Uint8Array, srcW: number, srcH: number, dstW: number, dstH: number, channels: number): void {
  for (const v of [srcW, srcH, dstW, dstH, channels]) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`Invalid image dimension ${v}`);
  }
  if (src.length !== srcW * srcH * channels) throw new RangeError(`Buffer of ${src.length} bytes is not ${srcW}x${srcH}x${channels}`);
}
