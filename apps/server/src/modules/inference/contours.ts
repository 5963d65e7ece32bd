/**
 * Polygons from binary masks, reproducing what ultralytics' `masks.xy` computes: OpenCV 4.6
 * `cv2.findContours(mask, RETR_EXTERNAL, CHAIN_APPROX_SIMPLE)` (Suzuki–Abe border following, ported from
 * `cvFindNextContour` / `icvFetchContour`) and, for masks with several parts, `merge_multi_segment`. Matching the
 * tracer keeps vertices identical to ultralytics', not merely similar.
 */

export type Point = [number, number];

// Chain-code directions as OpenCV numbers them: 0 = +x, then counter-clockwise on screen (y grows downwards).
const CODE_DX = [1, 1, 0, -1, -1, -1, 0, 1];
const CODE_DY = [0, -1, -1, -1, 0, 1, 1, 1];

/** OpenCV marks a traced border pixel with `nbd` (2), or `nbd | -128` when it lies on the right edge of its run. */
const MARK = 2;
const MARK_RIGHT = 2 | -128;

/**
 * Outer contours of the nonzero regions of a `width`x`height` mask, in OpenCV's order (last found first), each a list
 * of [x, y] pixel coordinates. Regions inside holes of other regions are skipped, as RETR_EXTERNAL does.
 */
export function findExternalContours(mask: ArrayLike<number>, width: number, height: number): Point[][] {
  if (mask.length !== width * height) throw new RangeError('findExternalContours: mask size mismatch');
  // cv::findContours copies the image into a frame one pixel wider on every side, so borders are never touched.
  const step = width + 2;
  const rows = height + 2;
  const img = new Int8Array(step * rows);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (mask[y * width + x]) img[(y + 1) * step + x + 1] = 1;
  }
  const deltas = new Int32Array(16);
  const base = [1, -step + 1, -step, -step - 1, -1, step - 1, step, step + 1];
  for (let i = 0; i < 16; i++) deltas[i] = base[i & 7];

  const contours: Point[][] = [];
  for (let y = 1; y < rows - 1; y++) {
    let lnbd = y * step; // index of the last border pixel met on this row; the frame column at first
    let prev = 0;
    for (let x = 1; x < step - 1; x++) {
      const p = img[y * step + x];
      if (p === prev) continue;
      const outerStart = prev === 0 && p === 1;
      // RETR_EXTERNAL traces no holes, and an outer border only when the last border pixel to its left was the
      // right edge of a region (negative mark) or the frame, i.e. the new region is not inside another one.
      if (outerStart && img[lnbd] <= 0) {
        contours.push(fetchContour(img, y * step + x, x - 1, y - 1, deltas));
        prev = img[y * step + x];
        lnbd = y * step + x;
        continue;
      }
      prev = p;
      if (p & -2) lnbd = y * step + x;
    }
  }
  return contours.reverse();
}

function fetchContour(img: Int8Array, i0: number, x: number, y: number, deltas: Int32Array): Point[] {
  const points: Point[] = [];
  let s = 4;
  let sEnd = 4;
  let i1 = i0;
  do {
    s = (s - 1) & 7;
    i1 = i0 + deltas[s];
    if (img[i1] !== 0) break;
  } while (s !== sEnd);

  if (s === sEnd) {
    img[i0] = MARK_RIGHT;
    points.push([x, y]);
    return points;
  }
  let i3 = i0;
  let prevS = s ^ 4;
  let px = x;
  let py = y;
  for (;;) {
    sEnd = s;
    let i4 = i3;
    while (s < 15) {
      i4 = i3 + deltas[++s];
      if (img[i4] !== 0) break;
    }
    s &= 7;
    if (s >= 1 && s - 1 < sEnd) img[i3] = MARK_RIGHT;
    else if (img[i3] === 1) img[i3] = MARK;
    // CHAIN_APPROX_SIMPLE: keep a point only where the direction changes.
    if (s !== prevS) {
      points.push([px, py]);
      prevS = s;
    }
    px += CODE_DX[s];
    py += CODE_DY[s];
    if (i4 === i0 && i3 === i1) break;
    i3 = i4;
    s = (s + 4) & 7;
  }
  return points;
}

/** Index pair (in `a`, in `b`) of the closest points, the first one in row-major order on ties, like numpy argmin. */
function minIndex(a: Point[], b: Point[]): [number, number] {
  let best = Infinity;
  let bi = 0;
  let bj = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      const dx = a[i][0] - b[j][0];
      const dy = a[i][1] - b[j][1];
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        bi = i;
        bj = j;
      }
    }
  }
  return [bi, bj];
}

function roll<T>(arr: T[], shift: number): T[] {
  const n = arr.length;
  const k = ((shift % n) + n) % n;
  return arr.slice(k).concat(arr.slice(0, k));
}

/**
 * ultralytics.data.converter.merge_multi_segment: joins several polygons into one by connecting each to the next at
 * their closest points and walking back, so a multi-part mask still yields a single `segments` entry.
 */
export function mergeMultiSegment(input: Point[][]): Point[] {
  const segments = input.map((s) => s.slice());
  const n = segments.length;
  const idxList: number[][] = segments.map(() => []);
  for (let i = 1; i < n; i++) {
    const [a, b] = minIndex(segments[i - 1], segments[i]);
    idxList[i - 1].push(a);
    idxList[i].push(b);
  }
  const out: Point[][] = [];
  for (let i = 0; i < n; i++) {
    let idx = idxList[i];
    if (idx.length === 2 && idx[0] > idx[1]) {
      idx = [idx[1], idx[0]];
      segments[i].reverse();
    }
    segments[i] = roll(segments[i], idx[0]);
    segments[i].push(segments[i][0]);
    if (i === 0 || i === n - 1) out.push(segments[i]);
    else out.push(segments[i].slice(0, idx[1] - idx[0] + 1));
  }
  for (let i = n - 1; i >= 0; i--) {
    if (i !== 0 && i !== n - 1) {
      const idx = idxList[i];
      out.push(segments[i].slice(Math.abs(idx[1] - idx[0])));
    }
  }
  return out.flat();
}

/** ultralytics.utils.ops.masks2segments(strategy="all") for one mask: one polygon, empty when the mask is. */
export function maskToSegment(mask: ArrayLike<number>, width: number, height: number): Point[] {
  const contours = findExternalContours(mask, width, height);
  if (contours.length === 0) return [];
  return contours.length > 1 ? mergeMultiSegment(contours) : contours[0];
}
