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

interface PilCoeffs {
  ksize: number;
  bounds: Int32Array; // [xmin, count] per output index
  kk: Int32Array; // ksize fixed-point weights per output index
}

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
  return { ksize, bounds, kk };
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
  const first = vert ? vert.bounds[top * 2] : top;
  const last = vert ? vert.bounds[(top + wh - 1) * 2] + vert.bounds[(top + wh - 1) * 2 + 1] : top + wh;
  const rows = last - first;
  const rowLen = ww * cn;
  // The intermediate rows: the result itself when no vertical pass follows, else the reused scratch.
  const tmp = vert || chw ? scratchOf(rowLen * rows) : new Uint8Array(rowLen * rows);
  if (dstW !== srcW) {
    const { bounds, kk, ksize } = pilCoeffs(srcW, dstW);
    for (let y = 0; y < rows; y++) {
      const inRow = (y + first) * srcW * cn;
      const outRow = y * rowLen;
      for (let xx = left; xx < left + ww; xx++) {
        const n = bounds[xx * 2 + 1];
        const k = xx * ksize;
        const p0 = inRow + bounds[xx * 2] * cn;
        const o = outRow + (xx - left) * cn;
        if (cn === 3) {
          // The RGB case unrolled: one weight load per tap and contiguous source reads.
          let s0 = PIL_HALF;
          let s1 = PIL_HALF;
          let s2 = PIL_HALF;
          for (let x = 0, p = p0; x < n; x++, p += 3) {
            const w = kk[k + x];
            s0 = (s0 + src[p] * w) | 0;
            s1 = (s1 + src[p + 1] * w) | 0;
            s2 = (s2 + src[p + 2] * w) | 0;
          }
          tmp[o] = clip8(s0);
          tmp[o + 1] = clip8(s1);
          tmp[o + 2] = clip8(s2);
          continue;
        }
        for (let c = 0; c < cn; c++) {
          let acc = PIL_HALF;
          for (let x = 0, p = p0 + c; x < n; x++, p += cn) acc = (acc + src[p] * kk[k + x]) | 0;
          tmp[o + c] = clip8(acc);
        }
      }
    }
  } else {
    for (let y = 0; y < rows; y++) tmp.set(src.subarray(((y + first) * srcW + left) * cn, ((y + first) * srcW + left + ww) * cn), y * rowLen);
  }
  if (!vert) {
    if (!chw) return tmp;
    bytesToChw(tmp, ww, wh, chw);
    return new Uint8Array(0);
  }
  const out = chw ? null : new Uint8Array(rowLen * wh);
  const plane = ww * wh;
  const accRow = accRowOf(rowLen);
  for (let yy = top; yy < top + wh; yy++) {
    const ymin = vert.bounds[yy * 2] - first;
    const n = vert.bounds[yy * 2 + 1];
    const k = yy * vert.ksize;
    // Whole rows at a time, so every source row is read sequentially once per output row.
    accRow.fill(PIL_HALF, 0, rowLen);
    for (let y = 0; y < n; y++) {
      const w = vert.kk[k + y];
      const base = (ymin + y) * rowLen;
      for (let i = 0; i < rowLen; i++) accRow[i] = (accRow[i] + tmp[base + i] * w) | 0;
    }
    if (out) {
      const o = (yy - top) * rowLen;
      for (let i = 0; i < rowLen; i++) out[o + i] = clip8(accRow[i]);
    } else {
      const { out: t, unit } = chw!;
      const o = (yy - top) * ww;
      for (let x = 0, i = 0; x < ww; x++, i += 3) {
        t[o + x] = unit[clip8(accRow[i])];
        t[plane + o + x] = unit[clip8(accRow[i + 1])];
        t[2 * plane + o + x] = unit[clip8(accRow[i + 2])];
      }
    }
  }
  return out ?? new Uint8Array(0);
}

let accScratch = new Int32Array(0);
function accRowOf(len: number): Int32Array {
  if (accScratch.length < len) accScratch = new Int32Array(len);
  return accScratch;
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
