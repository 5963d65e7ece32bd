/**
 * Pairwise similarities between labels (rows) and predictions (columns), computed in float32 like ultralytics'
 * torch code (`box_iou`, `mask_iou`, `kpt_iou`), so that a value on a threshold compares the same way.
 * See ADR 0034.
 */
const f = Math.fround;
const EPS = f(1e-7);

export type Box = readonly [number, number, number, number];

/** A label × prediction matrix, row-major (`rows` labels, `cols` predictions). */
export interface PairMatrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** ultralytics `box_iou(labels, predictions)`: intersection over union of xyxy boxes, `+1e-7` in the denominator. */
export function boxIou(labels: readonly Box[], preds: readonly Box[]): PairMatrix {
  const cols = preds.length;
  const data = new Float32Array(labels.length * cols);
  const pb = new Float32Array(cols * 4);
  const pa = new Float32Array(cols);
  preds.forEach((b, j) => {
    pb.set(b, j * 4);
    pa[j] = f(f(pb[j * 4 + 2] - pb[j * 4]) * f(pb[j * 4 + 3] - pb[j * 4 + 1]));
  });
  for (let i = 0; i < labels.length; i++) {
    const a1x = f(labels[i][0]);
    const a1y = f(labels[i][1]);
    const a2x = f(labels[i][2]);
    const a2y = f(labels[i][3]);
    const la = f(f(a2x - a1x) * f(a2y - a1y));
    for (let j = 0; j < cols; j++) {
      const iw = Math.max(0, f(Math.min(a2x, pb[j * 4 + 2]) - Math.max(a1x, pb[j * 4])));
      const ih = Math.max(0, f(Math.min(a2y, pb[j * 4 + 3]) - Math.max(a1y, pb[j * 4 + 1])));
      const inter = f(iw * ih);
      data[i * cols + j] = f(inter / f(f(f(la + pa[j]) - inter) + EPS));
    }
  }
  return { rows: labels.length, cols, data };
}

/** A binary mask on a grid shared by all masks of an image. */
export interface BitMask {
  width: number;
  height: number;
  /** 0 or 1 per pixel, row-major. */
  data: Uint8Array;
}

/** Where a mask has pixels: its area and bounding rows/columns (inclusive), for skipping pairs that cannot overlap. */
function extent(m: BitMask): { area: number; x0: number; y0: number; x1: number; y1: number } {
  let area = 0;
  let x0 = m.width;
  let y0 = m.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < m.height; y++) {
    const row = y * m.width;
    for (let x = 0; x < m.width; x++) {
      if (m.data[row + x]) {
        area++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return { area, x0, y0, x1, y1 };
}

/**
 * ultralytics `mask_iou`: pixel intersection over union on one grid, `+1e-7` in the denominator. With `pairs`, only
 * the pairs it allows are computed (the others stay 0: matching zeroes pairs of different classes anyway).
 */
export function maskIou(labels: readonly BitMask[], preds: readonly BitMask[], pairs?: (i: number, j: number) => boolean): PairMatrix {
  const cols = preds.length;
  const data = new Float32Array(labels.length * cols);
  const pe = preds.map(extent);
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i];
    const le = extent(a);
    for (let j = 0; j < cols; j++) {
      if (pairs && !pairs(i, j)) continue;
      const b = preds[j];
      if (b.width !== a.width || b.height !== a.height) throw new RangeError('Masks of one image must share a grid');
      const e = pe[j];
      let inter = 0;
      const x0 = Math.max(le.x0, e.x0);
      const x1 = Math.min(le.x1, e.x1);
      for (let y = Math.max(le.y0, e.y0); y <= Math.min(le.y1, e.y1); y++) {
        const row = y * a.width;
        for (let x = x0; x <= x1; x++) inter += a.data[row + x] & b.data[row + x];
      }
      data[i * cols + j] = f(inter / f(le.area + e.area - inter + EPS));
    }
  }
  return { rows: labels.length, cols, data };
}

/** COCO keypoint sigmas, which ultralytics uses for 17-keypoint (person) models. */
export const OKS_SIGMA = [0.26, 0.25, 0.25, 0.35, 0.35, 0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87, 0.89, 0.89].map((s) => s / 10);

/**
 * ultralytics `kpt_iou` (object keypoint similarity): labels' keypoints with visibility 0 are ignored; the area is the
 * label box's area × 0.53, as in its pose validator. Keypoints are flat `[x, y, (v), ...]` with `dims` values each.
 */
export function keypointOks(
  labels: ReadonlyArray<{ box: Box; keypoints: readonly number[] }>,
  preds: ReadonlyArray<{ keypoints: readonly number[] }>,
  nk: number,
  dims: number,
): PairMatrix {
  // ultralytics: COCO sigmas only for kpt_shape [17, 3], otherwise 1/nk each
  const sigma = nk === 17 && dims === 3 ? OKS_SIGMA : new Array<number>(nk).fill(1 / nk);
  const data = new Float32Array(labels.length * preds.length);
  for (let i = 0; i < labels.length; i++) {
    const { box, keypoints: g } = labels[i];
    const area = f(f(f(box[2] - box[0]) * f(box[3] - box[1])) * f(0.53));
    let visible = 0;
    for (let k = 0; k < nk; k++) if (dims < 3 || g[k * dims + 2] !== 0) visible++;
    for (let j = 0; j < preds.length; j++) {
      const p = preds[j].keypoints;
      let s = 0;
      for (let k = 0; k < nk; k++) {
        if (dims >= 3 && g[k * dims + 2] === 0) continue;
        const dx = g[k * dims] - p[k * dims];
        const dy = g[k * dims + 1] - p[k * dims + 1];
        const e = (dx * dx + dy * dy) / ((2 * sigma[k]) ** 2 * (area + EPS) * 2);
        s += Math.exp(-e);
      }
      data[i * preds.length + j] = f(s / (visible + EPS));
    }
  }
  return { rows: labels.length, cols: preds.length, data };
}

/** An oriented box: centre, size and rotation in radians (ultralytics `xywhr`). */
export type RotatedBox = readonly [number, number, number, number, number];

function covariance([, , w, h, r]: RotatedBox): [number, number, number] {
  const a = (w * w) / 12;
  const b = (h * h) / 12;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  return [a * cos * cos + b * sin * sin, a * sin * sin + b * cos * cos, (a - b) * cos * sin];
}

/** ultralytics `batch_probiou` (probabilistic IoU of oriented boxes as Gaussians, https://arxiv.org/pdf/2106.06072). */
export function probIou(labels: readonly RotatedBox[], preds: readonly RotatedBox[]): PairMatrix {
  const eps = 1e-7;
  const data = new Float32Array(labels.length * preds.length);
  for (let i = 0; i < labels.length; i++) {
    const [x1, y1] = labels[i];
    const [a1, b1, c1] = covariance(labels[i]);
    for (let j = 0; j < preds.length; j++) {
      const [x2, y2] = preds[j];
      const [a2, b2, c2] = covariance(preds[j]);
      const den = (a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps;
      const t1 = (((a1 + a2) * (y1 - y2) ** 2 + (b1 + b2) * (x1 - x2) ** 2) / den) * 0.25;
      const t2 = (((c1 + c2) * (x2 - x1) * (y1 - y2)) / den) * 0.5;
      const t3 = Math.log(
        ((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2) / (4 * Math.sqrt(Math.max(0, a1 * b1 - c1 * c1) * Math.max(0, a2 * b2 - c2 * c2)) + eps) + eps,
      );
      const bd = Math.min(Math.max(t1 + t2 + 0.5 * t3, eps), 100);
      const hd = Math.sqrt(1 - Math.exp(-bd) + eps);
      data[i * preds.length + j] = f(1 - hd);
    }
  }
  return { rows: labels.length, cols: preds.length, data };
}
