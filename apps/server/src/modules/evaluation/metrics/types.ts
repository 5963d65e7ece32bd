import type { BitMask, RotatedBox } from './iou.js';

/** One label or prediction, in pixels of the original image. */
export interface EvalBox {
  classId: number;
  /** x1, y1, x2, y2. */
  box: [number, number, number, number];
  /** Predictions only. */
  confidence?: number;
  /** Segment: the outline, flat [x0, y0, x1, y1, ...]. */
  polygon?: number[];
  /**
   * Segment: the mask on the image's {@link EvalImage.maskGrid} (predictions: the model's mask at prototype
   * resolution, as ultralytics val scores it). Without it the polygon is rasterised.
   */
  mask?: BitMask;
  /** Pose: flat [x, y, (visibility), ...] per keypoint; visibility 0 marks a label keypoint as absent. */
  keypoints?: number[];
  /** OBB: centre x, centre y, width, height, rotation in radians (ultralytics xywhr). */
  rbox?: RotatedBox;
}

/**
 * Where segment masks are compared (ultralytics val: the letterboxed model input, downsampled by the mask ratio 4 to
 * the prototype resolution). A pixel (u, v) of the grid covers input pixels [u*ratio, (u+1)*ratio); the image was
 * resized to `resizedWidth`×`resizedHeight` and placed at (`padLeft`, `padTop`) in the input.
 */
export interface MaskGrid {
  inputWidth: number;
  inputHeight: number;
  resizedWidth: number;
  resizedHeight: number;
  padLeft: number;
  padTop: number;
  ratio: number;
}

export interface EvalImage {
  imageId: string;
  width: number;
  height: number;
  labels: EvalBox[];
  /** With `confidence`; ordered as the model returned them (NMS order, most confident first). */
  predictions: EvalBox[];
  /** Segment: the grid of the predictions' masks. */
  maskGrid?: MaskGrid;
}

/** Per image, by the confusion matrix's rules (conf > 0.25, IoU > 0.45, any class), ultralytics' TP/FP/FN panels. */
export interface ImageOutcome {
  /** Confident predictions matching no label, most confident first. */
  falsePositives: EvalBox[];
  /** Labels no confident prediction matched. */
  falseNegatives: EvalBox[];
  /** A label matched by a confident prediction of another class. */
  wrongClass: Array<{ prediction: EvalBox; label: EvalBox; iou: number }>;
  /** Matched with the right class. */
  truePositives: number;
}
