import { EVAL_PREDICT_DEFAULTS } from '@sightline/contracts';
import type { Prediction, PredictOptions } from '../../inference/types.js';
import type { DetectionTask } from './detection-metrics.js';
import type { EvalBox, MaskGrid } from './types.js';

/**
 * How to run a model for an evaluation so that its predictions are the ones ultralytics `val` scores (ADR 0034):
 * conf 0.001 (0.01 for obb, as its validator), NMS IoU 0.7, 300 detections, multi-label NMS, the val loader's
 * letterbox, and for segment the masks at prototype resolution (empty ones kept).
 */
export function evalPredictOptions(task: DetectionTask): PredictOptions {
  const conf = task === 'obb' ? 0.01 : EVAL_PREDICT_DEFAULTS.conf;
  return { ...EVAL_PREDICT_DEFAULTS, conf, multiLabel: true, valLetterbox: true, protoMasks: task === 'segment' };
}

/** The inference engine's answer as the metrics engine's predictions (boxes, masks, keypoints). */
export function toEvalPredictions(p: Prediction): { predictions: EvalBox[]; maskGrid?: MaskGrid } {
  const predictions = p.results.map((r): EvalBox => {
    if (!r.box) throw new RangeError('An evaluated prediction needs a box');
    const b: EvalBox = { classId: r.class, confidence: r.confidence, box: [r.box.x1, r.box.y1, r.box.x2, r.box.y2] };
    if (r.protoMask) b.mask = r.protoMask;
    if (r.segments) b.polygon = r.segments.x.flatMap((x, k) => [x, r.segments!.y[k]]);
    if (r.keypoints) {
      const { x, y, visible } = r.keypoints;
      b.keypoints = x.flatMap((kx, k) => (visible ? [kx, y[k], visible[k]] : [kx, y[k]]));
    }
    return b;
  });
  return p.maskGrid ? { predictions, maskGrid: p.maskGrid } : { predictions };
}
