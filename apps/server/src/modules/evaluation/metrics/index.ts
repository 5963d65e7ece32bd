export { DetectionMetrics, type DetectionMetricsOptions, type DetectionTask } from './detection-metrics.js';
export { ClassificationMetrics, type ClassificationMetricsOptions, type ClassificationImage } from './classification-metrics.js';
export type { EvalBox, EvalImage, ImageOutcome, MaskGrid } from './types.js';
export type { BitMask, RotatedBox } from './iou.js';
export { IOU_THRESHOLDS } from './matching.js';
export { evalPredictOptions, toEvalPredictions } from './from-prediction.js';
