/** Boxes are x1, y1, x2, y2 packed four per box. */
export function boxIou(boxes: ArrayLike<number>, i: number, j: number): number {
  const ix1 = boxes[i * 4];
  const iy1 = boxes[i * 4 + 1];
  const ix2 = boxes[i * 4 + 2];
  const iy2 = boxes[i * 4 + 3];
  const jx1 = boxes[j * 4];
  const jy1 = boxes[j * 4 + 1];
  const jx2 = boxes[j * 4 + 2];
  const jy2 = boxes[j * 4 + 3];
  const w = Math.max(0, Math.min(ix2, jx2) - Math.max(ix1, jx1));
  const h = Math.max(0, Math.min(iy2, jy2) - Math.max(iy1, jy1));
  const inter = w * h;
  const union = (ix2 - ix1) * (iy2 - iy1) + (jx2 - jx1) * (jy2 - jy1) - inter;
  return union > 0 ? inter / union : 0;
}

export interface NmsOptions {
  /** Suppress a box when its IoU with a higher-scoring kept box is strictly greater than this. */
  iou: number;
  maxDet: number;
  /** Per-box class ids; boxes of different classes never suppress each other. Omit for class-agnostic NMS. */
  classes?: ArrayLike<number>;
}

/**
 * Greedy NMS as torchvision's `nms`, which ultralytics makes class-aware by offsetting boxes per class. Running the
 * greedy pass per class gives the same keeps without the offset, and each class only compares its own boxes.
 * Returns kept indices by descending score, at most `maxDet`.
 */
export function nms(boxes: ArrayLike<number>, scores: ArrayLike<number>, opts: NmsOptions): number[] {
  const n = scores.length;
  if (boxes.length !== n * 4) throw new RangeError('nms: boxes must hold 4 numbers per score');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const groups = new Map<number, number[]>();
  for (const i of order) {
    const c = opts.classes ? opts.classes[i] : 0;
    let g = groups.get(c);
    if (!g) groups.set(c, (g = []));
    g.push(i);
  }
  const kept: number[] = [];
  for (const group of groups.values()) {
    const suppressed = new Uint8Array(group.length);
    let keptHere = 0;
    for (let a = 0; a < group.length && keptHere < opts.maxDet; a++) {
      if (suppressed[a]) continue;
      const i = group[a];
      kept.push(i);
      keptHere++;
      for (let b = a + 1; b < group.length; b++) {
        if (!suppressed[b] && boxIou(boxes, i, group[b]) > opts.iou) suppressed[b] = 1;
      }
    }
  }
  kept.sort((a, b) => scores[b] - scores[a] || a - b);
  return kept.slice(0, opts.maxDet);
}
