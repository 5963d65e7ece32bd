import type { BitMask } from './iou.js';
import { interpAt, linspace } from './numeric.js';
import type { EvalBox, EvalImage, MaskGrid } from './types.js';

/**
 * Fills a polygon with integer vertices like OpenCV's `fillPoly` (which ultralytics' `polygon2mask` calls after
 * casting the points to int32): the outline drawn as 8-connected Bresenham lines, and on each row the pixels from
 * ceil(left edge) to floor(right edge), the edges stepped in 16.16 fixed point as OpenCV does.
 */
export function fillPolygon(width: number, height: number, xs: Int32Array, ys: Int32Array, out: Uint8Array = new Uint8Array(width * height)): Uint8Array {
  const n = xs.length;
  if (n === 0) return out;
  const ONE = 65536;
  const edges: Array<{ y0: number; y1: number; x: number; dx: number }> = [];
  for (let k = 0; k < n; k++) {
    const k1 = (k + 1) % n;
    line(out, width, height, xs[k], ys[k], xs[k1], ys[k1]);
    if (ys[k] === ys[k1]) continue;
    const [p0, p1] = ys[k] < ys[k1] ? [k, k1] : [k1, k];
    // C integer division truncates towards zero
    edges.push({ y0: ys[p0], y1: ys[p1], x: xs[p0] * ONE, dx: Math.trunc(((xs[p1] - xs[p0]) * ONE) / (ys[p1] - ys[p0])) });
  }
  const xsAt: number[] = [];
  let ymin = Infinity;
  let ymax = -Infinity;
  for (const e of edges) {
    ymin = Math.min(ymin, e.y0);
    ymax = Math.max(ymax, e.y1);
  }
  for (let y = Math.max(0, ymin); y < Math.min(height, ymax); y++) {
    xsAt.length = 0;
    for (const e of edges) if (y >= e.y0 && y < e.y1) xsAt.push(e.x + (y - e.y0) * e.dx);
    xsAt.sort((p, q) => p - q);
    const row = y * width;
    for (let k = 0; k + 1 < xsAt.length; k += 2) {
      const a = Math.max(0, Math.floor((xsAt[k] + ONE - 1) / ONE));
      const b = Math.min(width - 1, Math.floor(xsAt[k + 1] / ONE));
      for (let x = a; x <= b; x++) out[row + x] = 1;
    }
  }
  return out;
}

/** OpenCV's 8-connected `LineIterator` (drawn left to right), clipped to the image. */
function line(out: Uint8Array, width: number, height: number, ax: number, ay: number, bx: number, by: number): void {
  const [x0, y0, x1, y1] = ax <= bx ? [ax, ay, bx, by] : [bx, by, ax, ay];
  let x = x0;
  let y = y0;
  const dx = x1 - x;
  const sy = y1 >= y ? 1 : -1;
  const dy = Math.abs(y1 - y);
  const steep = dy > dx;
  const major = steep ? dy : dx;
  const minor = steep ? dx : dy;
  let err = major - 2 * minor;
  for (let i = 0; i <= major; i++) {
    if (x >= 0 && x < width && y >= 0 && y < height) out[y * width + x] = 1;
    const diag = err < 0;
    err += -2 * minor + (diag ? 2 * major : 0);
    if (steep) {
      y += sy;
      if (diag) x += 1;
    } else {
      x += 1;
      if (diag) y += sy;
    }
  }
}

/** An inclusive rectangle of input pixels. */
interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * OpenCV `resize(INTER_LINEAR)` of a 0/1 mask by an integer factor: each output pixel reads the 2×2 input pixels
 * around its centre. With `region`, only output pixels that can read inside it are computed (the rest are 0).
 */
export function downsample(src: Uint8Array, width: number, height: number, ratio: number, region?: Region): BitMask {
  const w = Math.floor(width / ratio);
  const h = Math.floor(height / ratio);
  const data = new Uint8Array(w * h);
  const u0 = region ? Math.max(0, Math.floor(region.x0 / ratio) - 1) : 0;
  const u1 = region ? Math.min(w - 1, Math.ceil(region.x1 / ratio) + 1) : w - 1;
  const v0 = region ? Math.max(0, Math.floor(region.y0 / ratio) - 1) : 0;
  const v1 = region ? Math.min(h - 1, Math.ceil(region.y1 / ratio) + 1) : h - 1;
  for (let v = v0; v <= v1; v++) {
    const sy = (v + 0.5) * ratio - 0.5;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    const y1 = Math.min(height - 1, y0 + 1);
    for (let u = u0; u <= u1; u++) {
      const sx = (u + 0.5) * ratio - 0.5;
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      const x1 = Math.min(width - 1, x0 + 1);
      const val = (1 - fy) * ((1 - fx) * src[y0 * width + x0] + fx * src[y0 * width + x1]) + fy * ((1 - fx) * src[y1 * width + x0] + fx * src[y1 * width + x1]);
      data[v * w + u] = val >= 0.5 ? 1 : 0;
    }
  }
  return { width: w, height: h, data };
}

/** Fills the polygon on a reusable full-size canvas, downsamples the part it touched, and clears it again. */
function rasteriseOnCanvas(xs: Int32Array, ys: Int32Array, grid: MaskGrid, canvas: Uint8Array): BitMask {
  const { inputWidth: w, inputHeight: h } = grid;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < xs.length; k++) {
    x0 = Math.min(x0, xs[k]);
    x1 = Math.max(x1, xs[k]);
    y0 = Math.min(y0, ys[k]);
    y1 = Math.max(y1, ys[k]);
  }
  const region = { x0: Math.max(0, x0), y0: Math.max(0, y0), x1: Math.min(w - 1, x1), y1: Math.min(h - 1, y1) };
  if (xs.length === 0 || region.x1 < region.x0 || region.y1 < region.y0)
    return {
      width: Math.floor(w / grid.ratio),
      height: Math.floor(h / grid.ratio),
      data: new Uint8Array(Math.floor(w / grid.ratio) * Math.floor(h / grid.ratio)),
    };
  fillPolygon(w, h, xs, ys, canvas);
  const mask = grid.ratio === 1 ? { width: w, height: h, data: canvas.slice(0, w * h) } : downsample(canvas, w, h, grid.ratio, region);
  for (let y = region.y0; y <= region.y1; y++) canvas.fill(0, y * w + region.x0, y * w + region.x1 + 1);
  return mask;
}

/**
 * ultralytics `resample_segments`: the closed outline (first point appended) as `n` points, the original vertices
 * plus `n - len` evenly spaced ones, in float32.
 */
export function resampleSegment(points: Float32Array, n: number): Float32Array {
  const m = points.length / 2;
  if (m === n) return points;
  const len = m + 1;
  const sx = new Float64Array(len);
  const sy = new Float64Array(len);
  for (let k = 0; k < len; k++) {
    sx[k] = points[2 * (k % m)];
    sy[k] = points[2 * (k % m) + 1];
  }
  let x: number[];
  if (len < n) {
    const even = Array.from(linspace(0, len - 1, n - len));
    x = [];
    let e = 0;
    // np.insert(x, np.searchsorted(x, xp), xp): each vertex index goes before the first even point >= it
    for (let v = 0; v < len; v++) {
      while (e < even.length && even[e] < v) x.push(even[e++]);
      x.push(v);
    }
    while (e < even.length) x.push(even[e++]);
  } else {
    x = Array.from(linspace(0, len - 1, n));
  }
  const xp = Array.from({ length: len }, (_, k) => k);
  const out = new Float32Array(x.length * 2);
  x.forEach((t, k) => {
    out[2 * k] = interpAt(t, xp, sx);
    out[2 * k + 1] = interpAt(t, xp, sy);
  });
  return out;
}

/**
 * A label polygon (original-image pixels) as ultralytics' val loader rasterises it: normalised coordinates in float32,
 * resampled to `n` points, scaled to the resized image, shifted by the padding, truncated to int32, filled, downsampled.
 */
function rasteriseLabel(polygon: readonly number[], image: { width: number; height: number }, grid: MaskGrid, n: number, canvas: Uint8Array): BitMask {
  const f = Math.fround;
  const norm = new Float32Array(polygon.length);
  for (let k = 0; k < polygon.length; k += 2) {
    norm[k] = polygon[k] / image.width;
    norm[k + 1] = polygon[k + 1] / image.height;
  }
  const pts = resampleSegment(norm, n);
  const count = pts.length / 2;
  const xs = new Int32Array(count);
  const ys = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    xs[k] = Math.trunc(f(f(pts[2 * k] * grid.resizedWidth) + grid.padLeft));
    ys[k] = Math.trunc(f(f(pts[2 * k + 1] * grid.resizedHeight) + grid.padTop));
  }
  return rasteriseOnCanvas(xs, ys, grid, canvas);
}

/** A prediction's polygon (original-image pixels) rasterised on the grid, when the model's own mask is not given. */
function rasterisePrediction(polygon: readonly number[], image: { width: number; height: number }, grid: MaskGrid, canvas: Uint8Array): BitMask {
  const n = Math.floor(polygon.length / 2);
  const xs = new Int32Array(n);
  const ys = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    xs[k] = Math.trunc((polygon[2 * k] / image.width) * grid.resizedWidth + grid.padLeft);
    ys[k] = Math.trunc((polygon[2 * k + 1] / image.height) * grid.resizedHeight + grid.padTop);
  }
  return rasteriseOnCanvas(xs, ys, grid, canvas);
}

function area(m: BitMask): number {
  let s = 0;
  for (let k = 0; k < m.data.length; k++) s += m.data[k];
  return s;
}

function boxPolygon(b: EvalBox): number[] {
  const [x1, y1, x2, y2] = b.box;
  return [x1, y1, x2, y1, x2, y2, x1, y2];
}

/** Without a grid from the model, masks are compared at the original resolution (at most 640 px on the long side). */
export function defaultGrid(width: number, height: number): MaskGrid {
  const gain = Math.min(1, 640 / Math.max(width, height));
  const w = Math.max(1, Math.round(width * gain));
  const h = Math.max(1, Math.round(height * gain));
  return { inputWidth: w, inputHeight: h, resizedWidth: w, resizedHeight: h, padLeft: 0, padTop: 0, ratio: 1 };
}

/**
 * The masks ultralytics' segment validator compares (`overlap_mask=True`): labels rasterised in the letterboxed input,
 * downsampled to the mask grid and layered largest first, so where labels overlap the pixel belongs to the smaller one;
 * predictions as given (the model's mask) or rasterised from their polygon. A box without a polygon counts as its box.
 */
export function imageMasks(image: EvalImage): { labels: BitMask[]; predictions: BitMask[] } {
  const grid = image.maskGrid ?? defaultGrid(image.width, image.height);
  const gw = Math.floor(grid.inputWidth / grid.ratio);
  const gh = Math.floor(grid.inputHeight / grid.ratio);
  // ultralytics resamples every outline of an image to 1000 points (more when one has more)
  const polygons = image.labels.map((b) => b.polygon ?? boxPolygon(b));
  const longest = Math.max(0, ...polygons.map((p) => p.length / 2));
  const n = longest > 1000 ? longest + 1 : 1000;
  const canvas = new Uint8Array(grid.inputWidth * grid.inputHeight);
  const labels = polygons.map((p) => rasteriseLabel(p, image, grid, n, canvas));
  // larger first (stable for equal areas); a later (smaller) mask takes the pixels it shares with earlier ones
  const order = labels.map((m, i) => ({ i, a: area(m) })).sort((p, q) => q.a - p.a || p.i - q.i);
  const owner = new Int32Array(gw * gh).fill(-1);
  for (const { i } of order) {
    const d = labels[i].data;
    for (let k = 0; k < d.length; k++) if (d[k]) owner[k] = i;
  }
  const layered = labels.map(() => ({ width: gw, height: gh, data: new Uint8Array(gw * gh) }));
  for (let k = 0; k < owner.length; k++) if (owner[k] >= 0) layered[owner[k]].data[k] = 1;
  const predictions = image.predictions.map((b) => {
    if (b.mask) {
      if (b.mask.width !== gw || b.mask.height !== gh)
        throw new RangeError(`Image ${image.imageId}: a prediction mask is ${b.mask.width}×${b.mask.height}, the grid ${gw}×${gh}`);
      return b.mask;
    }
    return rasterisePrediction(b.polygon ?? boxPolygon(b), image, grid, canvas);
  });
  return { labels: layered, predictions };
}
