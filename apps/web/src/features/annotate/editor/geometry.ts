/**
 * The editor's one coordinate model (ADR 0040): labels live in image pixels, the screen shows them through a
 * single affine view `screen = image * scale + (tx, ty)`. The image and its labels are drawn inside the same
 * transformed group, so no zoom or pan can make them drift apart; only the server's rows are normalised.
 */
export interface Point {
  x: number;
  y: number;
}
export interface View {
  scale: number;
  tx: number;
  ty: number;
}
export const MIN_SCALE = 0.02;
export const MAX_SCALE = 64;

export const toScreen = (v: View, p: Point): Point => ({ x: p.x * v.scale + v.tx, y: p.y * v.scale + v.ty });
export const toImage = (v: View, p: Point): Point => ({ x: (p.x - v.tx) / v.scale, y: (p.y - v.ty) / v.scale });
/** The SVG `transform` of the group that holds the image and the labels. */
export const viewTransform = (v: View) => `matrix(${v.scale} 0 0 ${v.scale} ${v.tx} ${v.ty})`;

/** The whole image centred in the viewport with a margin. */
export function fitView(imageW: number, imageH: number, viewportW: number, viewportH: number, margin = 16): View {
  const scale = clampScale(Math.min((viewportW - 2 * margin) / imageW, (viewportH - 2 * margin) / imageH));
  return { scale, tx: (viewportW - imageW * scale) / 2, ty: (viewportH - imageH * scale) / 2 };
}

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, Number.isFinite(s) && s > 0 ? s : 1));

/** Zoom by `factor` keeping the image point under `at` (screen) where it is. */
export function zoomAt(v: View, factor: number, at: Point): View {
  const scale = clampScale(v.scale * factor);
  const anchor = toImage(v, at);
  return { scale, tx: at.x - anchor.x * scale, ty: at.y - anchor.y * scale };
}

export const panBy = (v: View, dx: number, dy: number): View => ({ ...v, tx: v.tx + dx, ty: v.ty + dy });

/** Two fingers moved from `before` to `after` (screen): the image points under them follow (scale by distance, pan by midpoint). */
export function pinch(v: View, before: [Point, Point], after: [Point, Point]): View {
  const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const mid = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const d0 = dist(...before);
  const factor = d0 > 0 ? dist(...after) / d0 : 1;
  const m0 = mid(...before);
  const m1 = mid(...after);
  return panBy(zoomAt(v, factor, m0), m1.x - m0.x, m1.y - m0.y);
}

export const clampPoint = (p: Point, w: number, h: number): Point => ({ x: Math.min(w, Math.max(0, p.x)), y: Math.min(h, Math.max(0, p.y)) });

/** Keypoint `[x, y, visibility]` in pixels; visibility 0 = not labelled (YOLO pose). */
export type Keypoint = [number, number, number];
export type Shape =
  | { kind: 'box'; cls: number; x: number; y: number; w: number; h: number; keypoints: Keypoint[] }
  | { kind: 'polygon'; cls: number; points: Array<[number, number]> };

/** A shape as drawn, before it takes the current class. */
export type DrawnShape = Shape extends infer S ? (S extends Shape ? Omit<S, 'cls'> : never) : never;

/** The box spanned by two corners, inside the image. */
export function boxFromCorners(a: Point, b: Point, w: number, h: number): { x: number; y: number; w: number; h: number } {
  const p = clampPoint(a, w, h);
  const q = clampPoint(b, w, h);
  return { x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), w: Math.abs(p.x - q.x), h: Math.abs(p.y - q.y) };
}

/**
 * YOLO rows (normalised) → shapes in pixels: detect `[cls, cx, cy, w, h]`, segment `[cls, x1, y1, ...]`,
 * pose `[cls, cx, cy, w, h, kx, ky, v, ...]` (or pairs without visibility). Classify has no shapes.
 */
export function rowsToShapes(rows: number[][], task: string, w: number, h: number): Shape[] {
  const out: Shape[] = [];
  for (const row of rows) {
    const [cls, ...v] = row;
    if (cls === undefined || v.length < 4) continue;
    if (task === 'segment') {
      const points: Array<[number, number]> = [];
      for (let i = 0; i + 1 < v.length; i += 2) points.push([v[i]! * w, v[i + 1]! * h]);
      out.push({ kind: 'polygon', cls, points });
      continue;
    }
    const [cx, cy, bw, bh] = v as [number, number, number, number];
    const keypoints: Keypoint[] = [];
    if (task === 'pose' && v.length > 4) {
      const rest = v.slice(4);
      const step = rest.length % 3 === 0 ? 3 : 2;
      for (let i = 0; i + 1 < rest.length; i += step) keypoints.push([rest[i]! * w, rest[i + 1]! * h, step === 3 ? rest[i + 2]! : 2]);
    }
    out.push({ kind: 'box', cls, x: (cx - bw / 2) * w, y: (cy - bh / 2) * h, w: bw * w, h: bh * h, keypoints });
  }
  return out;
}

/** Shapes in pixels → YOLO rows (normalised), the inverse of rowsToShapes. */
export function shapesToRows(shapes: Shape[], task: string, w: number, h: number): number[][] {
  return shapes.map((s) => {
    if (s.kind === 'polygon') return [s.cls, ...s.points.flatMap(([x, y]) => [x / w, y / h])];
    const row = [s.cls, (s.x + s.w / 2) / w, (s.y + s.h / 2) / h, s.w / w, s.h / h];
    if (task === 'pose') for (const [x, y, vis] of s.keypoints) row.push(vis === 0 ? 0 : x / w, vis === 0 ? 0 : y / h, vis);
    return row;
  });
}

const inPolygon = (p: Point, pts: Array<[number, number]>) => {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i]!;
    const [xj, yj] = pts[j]!;
    if (yi > p.y !== yj > p.y && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

/** The topmost shape under an image point (the last drawn wins), `tolerance` in image pixels around box edges. */
export function hitTest(shapes: Shape[], p: Point, tolerance = 0): number {
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (s.kind === 'box') {
      if (p.x >= s.x - tolerance && p.x <= s.x + s.w + tolerance && p.y >= s.y - tolerance && p.y <= s.y + s.h + tolerance) return i;
    } else if (inPolygon(p, s.points)) return i;
  }
  return -1;
}

/** A shape moved by (dx, dy) image pixels, kept inside the image. */
export function moveShape(s: Shape, dx: number, dy: number, w: number, h: number): Shape {
  if (s.kind === 'box') {
    const ddx = Math.min(w - s.x - s.w, Math.max(-s.x, dx));
    const ddy = Math.min(h - s.y - s.h, Math.max(-s.y, dy));
    return { ...s, x: s.x + ddx, y: s.y + ddy, keypoints: s.keypoints.map(([x, y, v]) => (v === 0 ? [x, y, v] : [x + ddx, y + ddy, v])) };
  }
  const xs = s.points.map((q) => q[0]);
  const ys = s.points.map((q) => q[1]);
  const ddx = Math.min(w - Math.max(...xs), Math.max(-Math.min(...xs), dx));
  const ddy = Math.min(h - Math.max(...ys), Math.max(-Math.min(...ys), dy));
  return { ...s, points: s.points.map(([x, y]) => [x + ddx, y + ddy]) };
}

/** Number of keypoints per object in this image's pose rows (a new box gets as many, unlabelled). */
export const keypointCount = (shapes: Shape[]): number => shapes.reduce((n, s) => (s.kind === 'box' ? Math.max(n, s.keypoints.length) : n), 0);
