import { z } from 'zod';

/**
 * Results of a server-side evaluation, computed like ultralytics `val` (ADR 0034): the types the server stores and the
 * web app draws. Curves are sampled on ultralytics' 1000-point grid `x = linspace(0, 1, 1000)` (recall for PR,
 * confidence for the others).
 */

/** The tasks an evaluation scores. */
export const EVALUATION_TASKS = ['detect', 'segment', 'pose', 'obb', 'classify'] as const;
export type EvaluationTask = (typeof EVALUATION_TASKS)[number];

/** IoU thresholds of mAP50-95, as ultralytics (`linspace(0.5, 0.95, 10)`). */
export const EVAL_IOU_THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95] as const;
/** Points of every curve, as ultralytics. */
export const EVAL_CURVE_POINTS = 1000;
/** What ultralytics `val` runs the model with (obb: conf 0.01); the server's evaluation uses the same. */
export const EVAL_PREDICT_DEFAULTS = { conf: 0.001, iou: 0.7, maxDet: 300 } as const;
/** The confusion matrix's own thresholds (ultralytics, with the val defaults above): conf > 0.25, IoU > 0.45. */
export const EVAL_CONFUSION_DEFAULTS = { conf: 0.25, iou: 0.45 } as const;

const unit = z.number().min(0).max(1);

/** One class's box (or mask) metrics; null where the class has no labels in the evaluated images (ultralytics skips it). */
export const evalClassMetricsSchema = z.object({
  classId: z.number().int().min(0),
  name: z.string(),
  /** Images holding at least one label of the class (ultralytics `Images`). */
  images: z.number().int().min(0),
  /** Labels of the class (ultralytics `Instances`). */
  instances: z.number().int().min(0),
  /** Predictions of the class at the evaluation's confidence (0.001). */
  predictions: z.number().int().min(0),
  /** Precision, recall and F1 at the confidence that maximises the mean F1 over classes (ultralytics' reported P, R). */
  precision: unit.nullable(),
  recall: unit.nullable(),
  f1: unit.nullable(),
  /** True and false positives at that confidence, derived as ultralytics: `round(r * n)`, `round(tp / p - tp)`. */
  tp: z.number().int().min(0).nullable(),
  fp: z.number().int().min(0).nullable(),
  mAP50: unit.nullable(),
  mAP75: unit.nullable(),
  mAP50_95: unit.nullable(),
  /** AP at each of {@link EVAL_IOU_THRESHOLDS}. */
  ap: z.array(unit).nullable(),
});
export type EvalClassMetrics = z.infer<typeof evalClassMetricsSchema>;

export const evalCurveSchema = z.object({
  /** null for the mean over classes. */
  classId: z.number().int().min(0).nullable(),
  name: z.string(),
  /** {@link EVAL_CURVE_POINTS} values on the grid `x`, rounded to 1e-4. */
  y: z.array(z.number()),
});
export type EvalCurve = z.infer<typeof evalCurveSchema>;

export const evalCurvesSchema = z.object({
  /** The shared grid: `linspace(0, 1, 1000)`, recall for `pr`, confidence for the others. */
  x: z.array(z.number()),
  /** Precision envelope vs recall at IoU 0.5, per class with predictions, then the mean (ultralytics PR_curve). */
  pr: z.array(evalCurveSchema),
  /** F1, precision and recall vs confidence, per class with labels, then the mean (F1_curve, P_curve, R_curve). */
  f1: z.array(evalCurveSchema),
  precision: z.array(evalCurveSchema),
  recall: z.array(evalCurveSchema),
  /** The confidence at which P, R and F1 are reported (argmax of the smoothed mean F1), and that mean F1. */
  bestConfidence: unit,
  bestF1: unit,
});
export type EvalCurves = z.infer<typeof evalCurvesSchema>;

/** Metrics of one geometry (boxes, or masks for segment); overall values are means over classes with labels. */
export const evalMetricsSchema = z.object({
  precision: unit,
  recall: unit,
  f1: unit,
  mAP50: unit,
  mAP75: unit,
  mAP50_95: unit,
  perClass: z.array(evalClassMetricsSchema),
  curves: evalCurvesSchema,
});
export type EvalMetrics = z.infer<typeof evalMetricsSchema>;

/**
 * Confusion matrix in ultralytics' orientation: `matrix[predicted][true]`, index nc = background. The bottom row
 * (`matrix[nc][c]`) counts missed labels (false negatives), the right column (`matrix[c][nc]`) false detections
 * (false positives); `matrix[nc][nc]` is always 0.
 */
export const evalConfusionMatrixSchema = z.object({
  /** Class names by index; detection matrices add the background as the last row and column. */
  names: z.array(z.string()),
  background: z.boolean(),
  matrix: z.array(z.array(z.number().int().min(0))),
  /** The thresholds it was built with (detection only). */
  conf: unit.nullable(),
  iou: unit.nullable(),
});
export type EvalConfusionMatrix = z.infer<typeof evalConfusionMatrixSchema>;

export const detectionEvalResultSchema = z.object({
  task: z.enum(['detect', 'segment', 'pose', 'obb']),
  classNames: z.array(z.string()),
  /** Images evaluated, and labels in them. */
  images: z.number().int().min(0),
  instances: z.number().int().min(0),
  predictions: z.number().int().min(0),
  /** Box metrics (for obb: oriented boxes). */
  box: evalMetricsSchema,
  /** Segment: mask metrics; pose: keypoint (OKS) metrics. */
  mask: evalMetricsSchema.optional(),
  pose: evalMetricsSchema.optional(),
  confusionMatrix: evalConfusionMatrixSchema,
  /** What the numbers mean: the thresholds used, for display next to them. */
  protocol: z.object({
    name: z.literal('ultralytics-val'),
    iouThresholds: z.array(z.number()),
    confusionConf: unit,
    confusionIou: unit,
  }),
});
export type DetectionEvalResult = z.infer<typeof detectionEvalResultSchema>;

export const evalClassificationClassSchema = z.object({
  classId: z.number().int().min(0),
  name: z.string(),
  /** Images whose label is the class. */
  images: z.number().int().min(0),
  /** Of those, predicted right (top-1). */
  correct: z.number().int().min(0),
  /** correct / images (null without images), and the precision of the class's top-1 predictions (null without any). */
  recall: unit.nullable(),
  precision: unit.nullable(),
});

export const classificationEvalResultSchema = z.object({
  task: z.literal('classify'),
  classNames: z.array(z.string()),
  images: z.number().int().min(0),
  top1: unit,
  /** Label among the min(5, nc) most likely classes. */
  top5: unit,
  perClass: z.array(evalClassificationClassSchema),
  /** nc × nc, `matrix[predicted][true]`, no background. */
  confusionMatrix: evalConfusionMatrixSchema,
});
export type ClassificationEvalResult = z.infer<typeof classificationEvalResultSchema>;

export const evalResultSchema = z.union([detectionEvalResultSchema, classificationEvalResultSchema]);
export type EvalResult = z.infer<typeof evalResultSchema>;
