import type { PairMatrix } from './iou.js';

/** ultralytics' `iouv = torch.linspace(0.5, 0.95, 10)`: float32 values, compared in float32. */
export const IOU_THRESHOLDS: readonly number[] = Array.from({ length: 10 }, (_, i) => Math.fround(0.5 + 0.05 * i));

/**
 * ultralytics `BaseValidator.match_predictions` (its default, non-scipy path), for every IoU threshold: pairs of the
 * same class with IoU >= t; each prediction keeps its best-IoU label; then each label keeps the first of its
 * predictions in prediction order (NMS order, highest confidence first), not the best IoU. Returns one bit per
 * threshold per prediction (bit k set = true positive at `IOU_THRESHOLDS[k]`).
 */
export function matchPredictions(iou: PairMatrix, labelClasses: ArrayLike<number>, predClasses: ArrayLike<number>, thresholds = IOU_THRESHOLDS): Uint16Array {
  const { rows, cols, data } = iou;
  const correct = new Uint16Array(cols);
  if (rows === 0 || cols === 0) return correct;
  const bestLabel = new Int32Array(cols);
  const taken = new Uint8Array(rows);
  for (let t = 0; t < thresholds.length; t++) {
    const thr = thresholds[t];
    for (let j = 0; j < cols; j++) {
      let best = -1;
      let bestIou = -1;
      for (let i = 0; i < rows; i++) {
        if (labelClasses[i] !== predClasses[j]) continue;
        const v = data[i * cols + j];
        if (v >= thr && v > bestIou) {
          best = i;
          bestIou = v;
        }
      }
      bestLabel[j] = best;
    }
    taken.fill(0);
    for (let j = 0; j < cols; j++) {
      const i = bestLabel[j];
      if (i >= 0 && !taken[i]) {
        taken[i] = 1;
        correct[j] |= 1 << t;
      }
    }
  }
  return correct;
}

/** ultralytics' confusion-matrix thresholds with the val defaults (conf 0.001 → 0.25): both comparisons strict. */
export const CONFUSION_CONF = 0.25;
export const CONFUSION_IOU = Math.fround(0.45);

/**
 * ultralytics `ConfusionMatrix.process_batch` matching, ignoring classes: pairs with IoU > 0.45; each prediction keeps
 * its best-IoU label, then each label its best-IoU prediction. `preds` are the indexes (columns of `iou`) of the
 * predictions above the confusion confidence. Returns, per label, the matched column or -1.
 */
export function confusionMatch(iou: PairMatrix, preds: readonly number[], iouThreshold = CONFUSION_IOU): Int32Array {
  const { rows, cols, data } = iou;
  const labelMatch = new Int32Array(rows).fill(-1);
  const labelIou = new Float32Array(rows).fill(-1);
  for (const j of preds) {
    let best = -1;
    let bestIou = -1;
    for (let i = 0; i < rows; i++) {
      const v = data[i * cols + j];
      if (v > iouThreshold && v > bestIou) {
        best = i;
        bestIou = v;
      }
    }
    if (best >= 0 && bestIou > labelIou[best]) {
      labelMatch[best] = j;
      labelIou[best] = bestIou;
    }
  }
  return labelMatch;
}
