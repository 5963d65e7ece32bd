import type { BitMask } from './iou.js';
import type { EvalBox, EvalImage, MaskGrid } from './types.js';

/**
 * Fills a polygon with integer vertices like OpenCV's `fillPoly` (which ultralytics' `polygon2mask` calls after
 * casting the points to int32): the outline drawn as 8-connected Bresenham lines, and on each row the pixels from
 * ceil(left edge) to floor(right edge), the edges stepped in 16.16 fixed point as OpenCV does.
 */
export function fillPolygon(width: number, height: number, xs: Int32Array, ys: Int32Array, out = new Uint8Array(width * height)): Uint8Array {
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

/** OpenCV `resize(INTER_LINEAR)` of a 0/1 mask by an integer factor: each output pixel reads the 2×2 input pixels around its centre. */
export function downsample(src: Uint8Array, width: number, height: number, ratio: number): BitMask {
  const w = Math.floor(width / ratio);
  const h = Math.floor(height / ratio);
  const data = new Uint8Array(w * h);
  if (ratio === 1) {
    data.set(src.subarray(0, w * h));
    return { width: w, height: h, data };
  }
  for (let v = 0; v < h; v++) {
    const sy = (v + 0.5) * ratio - 0.5;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    const y1 = Math.min(height - 1, y0 + 1);
    for (let u = 0; u < w; u++) {
      const sx = (u + 0.5) * ratio - 0.5;
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      const x1 = Math.min(width - 1, x0 + 1);
      const val =
        (1 - fy) * ((1 - fx) * src[y0 * width + x0] + fx * src[y0 * width + x1]) + fy * ((1 - fx) * src[y1 * width + x0] + fx * src[y1 * width + x1]);
      data[v * w + u] = val >= 0.5 ? 1 : 0;
    }
  }
  return { width: w, height: h, data };
}

function rasterise(polygon: readonly number[], grid: MaskGrid): BitMask {
  const n = Math.floor(polygon.length / 2);
  const xs = new Int32Array(n);
  const ys = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    // np.int32 truncates towards zero
    xs[k] = Math.trunc(polygon[2 * k] * grid.gain + grid.padLeft);
    ys[k] = Math.trunc(polygon[2 * k + 1] * grid.gain + grid.padTop);
  }
  const full = fillPolygon(grid.inputWidth, grid.inputHeight, xs, ys);
  return downsample(full, grid.inputWidth, grid.inputHeight, grid.ratio);
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
  return { inputWidth: Math.max(1, Math.round(width * gain)), inputHeight: Math.max(1, Math.round(height * gain)), gain, padLeft: 0, padTop: 0, ratio: 1 };
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
  const labels = image.labels.map((b) => rasterise(b.polygon ?? boxPolygon(b), grid));
  // larger first (stable for equal areas); a later (smaller) mask takes the pixels it shares with earlier ones
  const order = labels.map((m, i) => ({ i, a: area(m) })).sort((p, q) => q.a - p.a || p.i - q.i);
  const owner = new Int32Array(gw * gh).fill(-1);
  for (const { i } of order) {
    const d = labels[i].data;
    for (let k = 0; k < d.length; k++) if (d[k]) owner[k] = i;
  }
  const layered = labels.map((m, i) => ({ width: gw, height: gh, data: Uint8Array.from(owner, (o) => (o === i ? 1 : 0)) }));
  const predictions = image.predictions.map((b) => {
    if (b.mask) {
      if (b.mask.width !== gw || b.mask.height !== gh) throw new RangeError(`Image ${image.imageId}: a prediction mask is ${b.mask.width}×${b.mask.height}, the grid ${gw}×${gh}`);
      return b.mask;
    }
    return rasterise(b.polygon ?? boxPolygon(b), grid);
  });
  return { labels: layered, predictions };
}
