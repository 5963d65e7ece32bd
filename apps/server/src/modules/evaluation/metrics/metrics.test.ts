/**
 * The evaluation engine on cases small enough to work out by hand (ADR 0034); parity with the real ultralytics `val`
 * on trained models is in test/evaluation-parity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { computeAp } from './ap.js';
import { ClassificationMetrics } from './classification-metrics.js';
import { DetectionMetrics } from './detection-metrics.js';
import { matchPredictions, IOU_THRESHOLDS } from './matching.js';
import { boxIou, keypointOks, OKS_SIGMA, probIou } from './iou.js';
import { downsample, fillPolygon } from './masks.js';
import { interp, smooth } from './numeric.js';
import type { EvalBox } from './types.js';

const names = ['cat', 'dog'];
const label = (classId: number, box: EvalBox['box']): EvalBox => ({ classId, box });
const pred = (classId: number, box: EvalBox['box'], confidence: number): EvalBox => ({ classId, box, confidence });
const A: EvalBox['box'] = [0, 0, 10, 10];
const B: EvalBox['box'] = [20, 20, 30, 30];
const FAR: EvalBox['box'] = [100, 100, 110, 110];

describe('numpy semantics', () => {
  it('interp takes the last of repeated x values and interpolates between distinct ones (as np.interp)', () => {
    // np.interp([0.5, 0.25, 1.0, 0.75], [0, 0.5, 0.5, 1, 1], [1, 1, 0.5, 0.6, 0]) = [0.5, 1, 0, 0.55]
    expect(Array.from(interp([0.5, 0.25, 1.0, 0.75], [0, 0.5, 0.5, 1, 1], [1, 1, 0.5, 0.6, 0]))).toEqual([0.5, 1, 0, expect.closeTo(0.55, 12)]);
    expect(Array.from(interp([-1, 2], [0, 1], [3, 4], 7, 8))).toEqual([7, 8]);
  });

  it('smooth is a 101-wide box filter padded with the end values for 1000 points at f=0.1', () => {
    const y = new Float64Array(1000);
    y[500] = 101;
    const s = smooth(y, 0.1);
    expect(s).toHaveLength(1000);
    expect(s[450]).toBeCloseTo(1, 12);
    expect(s[550]).toBeCloseTo(1, 12);
    expect(s[449]).toBe(0);
    expect(s[551]).toBe(0);
  });
});

describe('AP (compute_ap, 101-point interpolation)', () => {
  it('matches the value worked out by hand', () => {
    // recall [0.5, 0.5, 1], precision [1, 0.5, 2/3] → envelope 1 up to recall 0.5, 2/3 up to 1, the sentinel 0 at 1:
    // 0.49·1 + 0.01·(1 + 2/3)/2 + 0.49·2/3 + 0.01·(2/3)/2 (ultralytics compute_ap gives 0.8283333333333331)
    const byHand = 0.49 + (0.01 * (1 + 2 / 3)) / 2 + (0.49 * 2) / 3 + (0.01 * (2 / 3)) / 2;
    expect(computeAp([0.5, 0.5, 1], [1, 0.5, 2 / 3]).ap).toBeCloseTo(byHand, 12);
    expect(byHand).toBeCloseTo(0.8283333333333331, 12);
  });

  it('scores a stream of images like ap_per_class: AP, P/R at the best F1, derived TP/FP', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    // two cat labels; cat predictions: 0.9 on the first (TP), 0.8 on nothing (FP), 0.7 on the second (TP)
    m.addImage({ imageId: 'a', width: 200, height: 200, labels: [label(0, A)], predictions: [pred(0, A, 0.9), pred(0, FAR, 0.8)] });
    m.addImage({ imageId: 'b', width: 200, height: 200, labels: [label(0, B)], predictions: [pred(0, B, 0.7)] });
    const r = m.finish();
    const cat = r.box.perClass[0];
    expect(cat.mAP50).toBeCloseTo(0.8283333333333331, 12);
    expect(cat.mAP50_95).toBeCloseTo(0.8283333333333331, 12); // exact boxes: TP at every threshold
    // ultralytics ap_per_class on these three predictions: p 0.66667, r 1, f1 0.8, tp 2, fp 1
    expect(cat.precision).toBeCloseTo(2 / 3, 6);
    expect(cat.recall).toBeCloseTo(1, 6);
    expect(cat.f1).toBeCloseTo(0.8, 6);
    expect([cat.tp, cat.fp, cat.instances, cat.images, cat.predictions]).toEqual([2, 1, 2, 2, 3]);
    // dog has no labels: no metrics, and it is not in the means
    expect(r.box.perClass[1]).toMatchObject({ instances: 0, mAP50: null, precision: null });
    expect(r.box.mAP50).toBeCloseTo(cat.mAP50!, 12);
    expect([r.images, r.instances, r.predictions]).toEqual([2, 2, 3]);
    // curves on the 1000-point grid, PR per class with predictions then the mean
    expect(r.box.curves.x).toHaveLength(1000);
    expect(r.box.curves.pr.map((c) => c.classId)).toEqual([0, null]);
    expect(r.box.curves.f1.map((c) => c.y.length)).toEqual([1000, 1000]);
  });

  it('gives a class with labels but no predictions AP 0, counted in the mean', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    m.addImage({ imageId: 'a', width: 200, height: 200, labels: [label(0, A), label(1, B)], predictions: [pred(0, A, 0.9)] });
    const r = m.finish();
    expect(r.box.perClass[1]).toMatchObject({ mAP50: 0, recall: 0, instances: 1, predictions: 0 });
    expect(r.box.mAP50).toBeCloseTo((r.box.perClass[0].mAP50! + 0) / 2, 12);
  });

  it('reports zeros, not NaN, when no image has labels', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    m.addImage({ imageId: 'a', width: 50, height: 50, labels: [], predictions: [pred(0, A, 0.9)] });
    const r = m.finish();
    expect([r.box.mAP50, r.box.mAP50_95, r.box.precision, r.box.recall, r.box.curves.bestF1]).toEqual([0, 0, 0, 0, 0]);
    expect(r.confusionMatrix.matrix[0][2]).toBe(1);
  });
});

describe('matching (match_predictions)', () => {
  it('keeps for each label the first prediction in NMS order, not the best IoU', () => {
    // one label [0,0,10,10]; prediction 0 overlaps with IoU 0.6, prediction 1 with IoU 0.9
    const p0: EvalBox['box'] = [0, 0, 10, 6]; // IoU 0.6
    const p1: EvalBox['box'] = [0, 0, 10, 9]; // IoU 0.9
    const iou = boxIou([A], [p0, p1]);
    expect(iou.data[0]).toBeCloseTo(0.6, 5);
    const bits = matchPredictions(iou, [0], [0, 0]);
    const at = (j: number) => IOU_THRESHOLDS.map((_, t) => Boolean(bits[j] & (1 << t)));
    // at 0.5 and 0.55 both qualify and the label goes to prediction 0; from 0.65 only prediction 1 does (0.6 is
    // 0.6000000238 in float32 against an IoU of 0.6 in float32: equal, so prediction 0 still qualifies there)
    expect(at(0)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(at(1)).toEqual([false, false, false, true, true, true, true, true, true, false]);
  });

  it('never matches across classes', () => {
    const bits = matchPredictions(boxIou([A], [A]), [0], [1]);
    expect(bits[0]).toBe(0);
  });
});

describe('confusion matrix (rows predicted, columns true, background last)', () => {
  it('counts a wrong class off the diagonal and reports it per image', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    const dog = pred(1, A, 0.9);
    const cat = label(0, A);
    const out = m.addImage({ imageId: 'a', width: 50, height: 50, labels: [cat], predictions: [dog] });
    expect(out).toEqual({ falsePositives: [], falseNegatives: [], wrongClass: [{ prediction: dog, label: cat, iou: expect.closeTo(1, 6) }], truePositives: 0 });
    const r = m.finish();
    expect(r.confusionMatrix.matrix).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(r.confusionMatrix.names).toEqual(['cat', 'dog', 'background']);
    // for mAP the dog prediction is simply a false positive and the cat label is missed
    expect(r.box.perClass[0]).toMatchObject({ mAP50: 0, predictions: 0 });
  });

  it('puts missed labels in the bottom row and false detections in the right column, with its own thresholds', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    // no labels: 0.5 counts as a false detection, 0.25 does not (conf > 0.25 is strict) but still counts for AP
    const fp = pred(0, A, 0.5);
    const a = m.addImage({ imageId: 'empty', width: 50, height: 50, labels: [], predictions: [pred(1, B, 0.25), fp] });
    expect(a.falsePositives).toEqual([fp]);
    // no predictions: every label is missed
    const b = m.addImage({ imageId: 'missed', width: 50, height: 50, labels: [label(1, B), label(0, A)], predictions: [] });
    expect(b.falseNegatives).toHaveLength(2);
    // IoU exactly 0.45 is not a match (IoU > 0.45 is strict): [0,0,10,4.5] over [0,0,10,10]
    const c = m.addImage({ imageId: 'edge', width: 50, height: 50, labels: [label(0, A)], predictions: [pred(0, [0, 0, 10, 4.5], 0.9), pred(0, B, 0.9)] });
    expect([c.falsePositives.length, c.falseNegatives.length, c.truePositives]).toEqual([2, 1, 0]);
    // a good match is on the diagonal
    const d = m.addImage({ imageId: 'ok', width: 50, height: 50, labels: [label(1, B)], predictions: [pred(1, [20, 20, 30, 29], 0.9)] });
    expect(d.truePositives).toBe(1);
    const r = m.finish();
    expect(r.confusionMatrix.matrix).toEqual([
      [0, 0, 3],
      [0, 1, 0],
      [2, 1, 0],
    ]);
    expect(r.predictions).toBe(5);
  });
});

describe('masks (ultralytics polygon2mask on the prototype grid)', () => {
  it('fills a polygon with its outline and downsamples by 4 reading the 2×2 centre pixels', () => {
    const full = fillPolygon(8, 8, Int32Array.from([1, 6, 6, 1]), Int32Array.from([1, 1, 6, 6]));
    // OpenCV fills the closed square [1, 6] × [1, 6] (36 pixels)
    expect(full.reduce((s, v) => s + v, 0)).toBe(36);
    const small = downsample(full, 8, 8, 4);
    expect(Array.from(small.data)).toEqual([1, 1, 1, 1]);
  });

  it('scores segment masks: an exact mask at every threshold, a half-covering one at none', () => {
    const m = new DetectionMetrics({ task: 'segment', classNames: names });
    const square = [0, 0, 40, 0, 40, 40, 0, 40];
    const half = [0, 0, 40, 0, 40, 19, 0, 19];
    m.addImage({
      imageId: 'a',
      width: 80,
      height: 80,
      labels: [{ classId: 0, box: [0, 0, 40, 40], polygon: square }],
      predictions: [{ classId: 0, box: [0, 0, 40, 40], polygon: half, confidence: 0.9 }],
    });
    const r = m.finish();
    expect(r.box.mAP50_95).toBeGreaterThan(0.99);
    expect(r.mask?.mAP50).toBe(0);
  });
});

describe('pose (OKS) and obb (probiou)', () => {
  it('computes the object keypoint similarity by hand: one of 17 keypoints off by 3 px', () => {
    const kp = Array.from({ length: 17 }, (_, k) => [10 + k, 20 + k, 2]).flat();
    const moved = [...kp];
    moved[0] += 3;
    const box: [number, number, number, number] = [0, 0, 40, 50];
    const area = 40 * 50 * 0.53;
    const e = 9 / ((2 * OKS_SIGMA[0]) ** 2 * area * 2);
    const oks = keypointOks([{ box, keypoints: kp }], [{ keypoints: moved }, { keypoints: kp }], 17, 3);
    expect(oks.data[0]).toBeCloseTo((16 + Math.exp(-e)) / 17, 5);
    expect(oks.data[1]).toBeCloseTo(1, 5);
    // a label keypoint with visibility 0 does not count
    const hidden = [...kp];
    hidden[2] = 0;
    expect(keypointOks([{ box, keypoints: hidden }], [{ keypoints: moved }], 17, 3).data[0]).toBeCloseTo(1, 5);
  });

  it('scores pose matches with OKS and oriented boxes with probiou', () => {
    const same = probIou(
      [[50, 50, 20, 10, 0.3]],
      [
        [50, 50, 20, 10, 0.3],
        [150, 150, 20, 10, 0.3],
      ],
    );
    expect(same.data[0]).toBeGreaterThan(0.999);
    expect(same.data[1]).toBeLessThan(1e-3);
    const m = new DetectionMetrics({ task: 'obb', classNames: names });
    const out = m.addImage({
      imageId: 'o',
      width: 200,
      height: 200,
      labels: [{ classId: 0, box: [38, 42, 62, 58], rbox: [50, 50, 20, 10, 0.3] }],
      predictions: [{ classId: 0, box: [38, 42, 62, 58], rbox: [50, 50, 20, 10, 0.3], confidence: 0.9 }],
    });
    expect(out.truePositives).toBe(1);
    expect(m.finish().box.mAP50_95).toBeGreaterThan(0.99);
  });
});

describe('input checks', () => {
  it('refuses class ids outside the class list and predictions without a confidence', () => {
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    expect(() => m.addImage({ imageId: 'x', width: 10, height: 10, labels: [label(2, A)], predictions: [] })).toThrow(/class id 2/);
    expect(() => m.addImage({ imageId: 'x', width: 10, height: 10, labels: [], predictions: [label(0, A)] })).toThrow(/confidence/);
  });
});

describe('classification (top-1, top-5, confusion matrix)', () => {
  it('counts top-1 and top-5 like ultralytics and orients the matrix predicted × true', () => {
    const classNames = ['a', 'b', 'c', 'd', 'e', 'f'];
    const m = new ClassificationMetrics({ classNames });
    expect(m.addImage({ imageId: '1', labelClassId: 0, probabilities: [0.5, 0.1, 0.1, 0.1, 0.1, 0.1] })).toMatchObject({ correct: true, top5: true });
    // label 1 is 2nd: wrong at top-1, right at top-5
    expect(m.addImage({ imageId: '2', labelClassId: 1, probabilities: [0.4, 0.3, 0.1, 0.1, 0.05, 0.05] })).toMatchObject({
      correct: false,
      top5: true,
      predictedClassId: 0,
    });
    // label 5 is last of six: outside the top 5
    expect(m.addImage({ imageId: '3', labelClassId: 5, probabilities: [0.3, 0.25, 0.2, 0.15, 0.09, 0.01] })).toMatchObject({ correct: false, top5: false });
    const r = m.finish();
    expect(r.top1).toBeCloseTo(1 / 3, 12);
    expect(r.top5).toBeCloseTo(2 / 3, 12);
    expect(r.confusionMatrix.matrix[0]).toEqual([1, 1, 0, 0, 0, 1]);
    expect(r.perClass[0]).toMatchObject({ images: 1, correct: 1, recall: 1, precision: 1 / 3 });
    expect(r.perClass[2]).toMatchObject({ images: 0, recall: null, precision: null });
  });
});
