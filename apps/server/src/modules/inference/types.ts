import type { YoloTask } from './onnx-metadata.js';

export interface Size {
  width: number;
  height: number;
}

/** Box corners in original-image pixels, clipped to the image. */
export interface BoxXYXY {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * One result, shaped like the HUB inference API's `images[].results[]` entries: `class`, `name`, `confidence`, and
 * `box` / `segments` / `keypoints` where the task has them.
 */
export interface PredictionResult {
  class: number;
  name: string;
  confidence: number;
  box?: BoxXYXY;
  /** Segment task: the object's outline in original-image pixels (ultralytics `masks.xy`). */
  segments?: { x: number[]; y: number[] };
  /**
   * Segment task: mask pixels counted at model-input resolution (the letterboxed frame the mask is computed in), as
   * ultralytics' `masks.data.sum()`.
   */
  maskPixels?: number;
  /**
   * Segment task with `protoMasks`: the mask at prototype resolution in the letterboxed frame (logits > 0 inside the
   * box), which is what ultralytics val scores; see {@link Prediction.maskGrid}.
   */
  protoMask?: { width: number; height: number; data: Uint8Array };
  /** Pose task: keypoints in original-image pixels; `visible` is the keypoint confidence when the model has one. */
  keypoints?: { x: number[]; y: number[]; visible?: number[] };
}

export interface ClassScore {
  class: number;
  name: string;
  confidence: number;
}

/** Milliseconds per stage, like ultralytics `Results.speed` plus the image decode. */
export interface StageTimings {
  decode: number;
  preprocess: number;
  inference: number;
  postprocess: number;
}

export interface Prediction {
  task: YoloTask;
  /** Class names by class id, from the model's metadata. */
  names: string[];
  /** Original image size after EXIF orientation. */
  imageSize: Size;
  /** Size of the tensor the model ran on. */
  inputSize: Size;
  /** Detections by descending confidence; for classify, the top-5 classes. */
  results: PredictionResult[];
  /** Classify only: the five most likely classes (fewer when the model has fewer). */
  top5?: ClassScore[];
  /** Classify only: probability of every class, by class id. */
  probs?: number[];
  speed: StageTimings;
  /**
   * Segment task with `protoMasks`: where `protoMask` pixels sit. A mask pixel (u, v) covers input pixels
   * [u·ratio, (u+1)·ratio); the image was resized to `resizedWidth`×`resizedHeight` and placed at (`padLeft`, `padTop`).
   */
  maskGrid?: { inputWidth: number; inputHeight: number; resizedWidth: number; resizedHeight: number; padLeft: number; padTop: number; ratio: number };
}

export interface PredictOptions {
  /**
   * Inference size, one number or [height, width]. Only dynamic-shape models use it (rounded up to a multiple of
   * the stride); a fixed-shape model always letterboxes to its own input size. Default: the model's `imgsz`.
   */
  imgsz?: number | [number, number];
  /** Confidence threshold; default 0.25. */
  conf?: number;
  /** NMS IoU threshold; default 0.45, as the HUB inference API. */
  iou?: number;
  /** Maximum detections; default 300. */
  maxDet?: number;
  /** Class-agnostic NMS; default false. */
  agnostic?: boolean;
  /**
   * NMS like ultralytics val (`multi_label=True`): every class above `conf` on a box is a candidate of its own.
   * Default false, like predict.
   */
  multiLabel?: boolean;
  /**
   * Segment: also return each detection's mask at prototype resolution (`protoMask`, `maskGrid`) and keep detections
   * whose mask is empty, as ultralytics val does (predict drops them). Default false.
   */
  protoMasks?: boolean;
  /**
   * Letterbox like ultralytics' val loader (`rect=False`): the long side resized with `ceil()` instead of predict's
   * rounding, enlarging small images too; results are mapped back per axis. Fixed-shape models. Default false.
   */
  valLetterbox?: boolean;
  /** Dynamic-shape models: pad only to a multiple of the stride (ultralytics `rect`); default true. */
  rect?: boolean;
}

/** A raw output tensor of a model run. */
export interface RawTensor {
  dims: number[];
  data: Float32Array;
}
