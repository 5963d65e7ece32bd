import { nms } from './nms.js';
import { pyRound } from './preprocess.js';

/** A detection in model-input (letterboxed) pixels. */
export interface RawDetection {
  box: [number, number, number, number];
  score: number;
  cls: number;
  /** Values after the class scores: 32 mask coefficients (segment) or keypoints (pose). */
  extra?: Float32Array;
}

export interface DecodeOptions {
  /** Number of classes. */
  nc: number;
  /** Values per detection after the class scores (mask coefficients, keypoints); 0 for detect. */
  extra: number;
  conf: number;
  iou: number;
  maxDet: number;
  agnostic?: boolean;
  /**
   * ultralytics val's `multi_label=True`: every class scoring above `conf` on an anchor is its own candidate (so one
   * box can be kept for several classes). Default false, as predict.
   */
  multiLabel?: boolean;
  /**
   * The graph already ran NMS (export with `nms=True`, or end-to-end heads): rows are
   * x1, y1, x2, y2, score, class, extra... and only the confidence filter applies.
   */
  end2end?: boolean;
}

/** Ultralytics NMS never looks at more than this many candidates. */
const MAX_NMS = 30_000;

/** Per-anchor best score and class, reused across calls (decoding is synchronous); float32 like the head. */
let bestScores = new Float32Array(0);
let bestClasses = new Int32Array(0);
function bestScratch(anchors: number): { score: Float32Array; cls: Int32Array } {
  if (bestScores.length < anchors) {
    bestScores = new Float32Array(anchors);
    bestClasses = new Int32Array(anchors);
  }
  return { score: bestScores, cls: bestClasses };
}

/**
 * `ultralytics.utils.ops.non_max_suppression` for one image of a raw head output of shape
 * [1, 4 + nc + extra, anchors]: best class per anchor (or, with `multiLabel`, every class) with score > conf,
 * xywh → xyxy, class-aware greedy NMS, at most `maxDet`, by descending score.
 */
export function decodeDetections(output: Float32Array, dims: readonly number[], opts: DecodeOptions): RawDetection[] {
  if (opts.end2end) return decodeEnd2End(output, dims, opts);
  const rows = 4 + opts.nc + opts.extra;
  if (dims.length !== 3 || dims[0] !== 1 || dims[1] !== rows) {
    throw new RangeError(`Expected an output of shape [1, ${rows}, anchors], got [${dims.join(', ')}]`);
  }
  const n = dims[2];
  // The best class per anchor, found class row by class row: the head is [rows, anchors], so this reads it in
  // memory order (an anchor-major loop strides by `anchors` floats per read). Strict `>`: the first maximum wins.
  const { score: best, cls: bestOf } = bestScratch(n);
  best.fill(-Infinity, 0, n);
  bestOf.fill(0, 0, n);
  for (let c = 0; c < opts.nc; c++) {
    const row = (4 + c) * n;
    for (let a = 0; a < n; a++) {
      const s = output[row + a];
      if (s > best[a]) {
        best[a] = s;
        bestOf[a] = c;
      }
    }
  }
  const candidates: number[] = [];
  const bestCls: number[] = [];
  const bestScore: number[] = [];
  const multi = opts.multiLabel === true && opts.nc > 1;
  for (let a = 0; a < n; a++) {
    if (!(best[a] > opts.conf)) continue;
    if (multi) {
      // torch.where(cls > conf): anchor-major, then class order
      for (let c = 0; c < opts.nc; c++) {
        const s = output[(4 + c) * n + a];
        if (s > opts.conf) {
          candidates.push(a);
          bestCls.push(c);
          bestScore.push(s);
        }
      }
    } else {
      candidates.push(a);
      bestCls.push(bestOf[a]);
      bestScore.push(best[a]);
    }
  }
  let order = candidates.map((_, i) => i);
  if (order.length > MAX_NMS) order = order.sort((i, j) => bestScore[j] - bestScore[i]).slice(0, MAX_NMS);
  const boxes = new Float64Array(order.length * 4);
  const scores = new Float64Array(order.length);
  const classes = new Int32Array(order.length);
  order.forEach((ci, k) => {
    const a = candidates[ci];
    const cx = output[a];
    const cy = output[n + a];
    const hw = output[2 * n + a] / 2;
    const hh = output[3 * n + a] / 2;
    boxes.set([cx - hw, cy - hh, cx + hw, cy + hh], k * 4);
    scores[k] = bestScore[ci];
    classes[k] = bestCls[ci];
  });
  const keep = nms(boxes, scores, { iou: opts.iou, maxDet: opts.maxDet, classes: opts.agnostic ? undefined : classes });
  return keep.map((k) => {
    const a = candidates[order[k]];
    const det: RawDetection = {
      box: [boxes[k * 4], boxes[k * 4 + 1], boxes[k * 4 + 2], boxes[k * 4 + 3]],
      score: scores[k],
      cls: classes[k],
    };
    if (opts.extra > 0) {
      const extra = new Float32Array(opts.extra);
      for (let e = 0; e < opts.extra; e++) extra[e] = output[(4 + opts.nc + e) * n + a];
      det.extra = extra;
    }
    return det;
  });
}

function decodeEnd2End(output: Float32Array, dims: readonly number[], opts: DecodeOptions): RawDetection[] {
  const cols = 6 + opts.extra;
  if (dims.length !== 3 || dims[0] !== 1 || dims[2] !== cols) {
    throw new RangeError(`Expected an end-to-end output of shape [1, detections, ${cols}], got [${dims.join(', ')}]`);
  }
  const out: RawDetection[] = [];
  for (let i = 0; i < dims[1] && out.length < opts.maxDet; i++) {
    const row = output.subarray(i * cols, (i + 1) * cols);
    if (!(row[4] > opts.conf)) continue;
    out.push({
      box: [row[0], row[1], row[2], row[3]],
      score: row[4],
      cls: Math.round(row[5]),
      ...(opts.extra > 0 ? { extra: row.slice(6) } : {}),
    });
  }
  return out.sort((a, b) => b.score - a.score);
}

export interface FrameMapping {
  /** Model input size. */
  inputWidth: number;
  inputHeight: number;
  /** Original image size. */
  width: number;
  height: number;
  /**
   * Where the image sits in the input when it was not letterboxed like predict (the val loader's geometry): mapped
   * back per axis with these exact scales and pads.
   */
  placed?: { scaleX: number; scaleY: number; padLeft: number; padTop: number };
}

function gainOf(m: FrameMapping): number {
  return Math.min(m.inputHeight / m.height, m.inputWidth / m.width);
}

/**
 * `ops.scale_boxes`: undo the letterbox with the same gain and *rounded* padding the letterbox used, then clip to
 * the image.
 */
export function scaleBoxToImage(box: readonly number[], m: FrameMapping): [number, number, number, number] {
  if (m.placed) return [0, 1, 2, 3].map((k) => scalePlaced(box[k], k % 2 === 1, m)) as [number, number, number, number];
  const gain = gainOf(m);
  const padX = pyRound((m.inputWidth - m.width * gain) / 2 - 0.1);
  const padY = pyRound((m.inputHeight - m.height * gain) / 2 - 0.1);
  const clip = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
  return [
    clip((box[0] - padX) / gain, m.width),
    clip((box[1] - padY) / gain, m.height),
    clip((box[2] - padX) / gain, m.width),
    clip((box[3] - padY) / gain, m.height),
  ];
}

/**
 * `ops.scale_coords` (polygons, keypoints): unlike `scale_boxes` it subtracts the *unrounded* padding. The golden
 * polygons confirm it: for a 224x160 image they only land on the mask's pixel grid with a pad of 22.857, not 23.
 */
export function scalePointToImage(x: number, y: number, m: FrameMapping): [number, number] {
  if (m.placed) return [scalePlaced(x, false, m), scalePlaced(y, true, m)];
  const gain = gainOf(m);
  const padX = (m.inputWidth - m.width * gain) / 2;
  const padY = (m.inputHeight - m.height * gain) / 2;
  return [Math.min(Math.max((x - padX) / gain, 0), m.width), Math.min(Math.max((y - padY) / gain, 0), m.height)];
}

function scalePlaced(v: number, vertical: boolean, m: FrameMapping): number {
  const p = m.placed!;
  const out = vertical ? (v - p.padTop) / p.scaleY : (v - p.padLeft) / p.scaleX;
  return Math.min(Math.max(out, 0), vertical ? m.height : m.width);
}

/**
 * Indices of the `k` largest values, largest first (ties keep the lower index first), as a stable sort of all
 * indices by descending value would give; one pass keeping the best `k` (no copy or sort of the whole array).
 * NaN counts as the smallest value.
 */
export function topK(values: ArrayLike<number>, k: number): number[] {
  const m = Math.max(0, Math.min(k, values.length));
  const idx = new Array<number>(m);
  const val = new Float64Array(m);
  let len = 0;
  for (let i = 0; i < values.length; i++) {
    let v = values[i];
    if (v !== v) v = -Infinity;
    let j: number;
    if (len < m) j = len++;
    else if (m > 0 && v > val[m - 1])
      j = m - 1; // the last one drops out; an equal value never enters (higher index)
    else continue;
    while (j > 0 && v > val[j - 1]) {
      idx[j] = idx[j - 1];
      val[j] = val[j - 1];
      j--;
    }
    idx[j] = i;
    val[j] = v;
  }
  return idx;
}
