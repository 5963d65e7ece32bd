/**
 * Parity with the real ultralytics 8.3.166 predictor, on every fixture model and image (see
 * shared/fixtures/models/README.md for how the goldens were made). Tolerances are the README's: same detections in
 * the same order, boxes within 1 px, scores within 1e-3; with a byte-exact letterbox the engine is ~1000x inside them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';
import { InferenceEngine } from './inference.engine.js';
import { letterboxGeometry, letterboxImage, toChwFloat } from './preprocess.js';
import { fixture, readGolden, type GoldenBoxes, type GoldenClassify, type GoldenImage } from './test-fixtures.js';
import type { Prediction } from './types.js';

const BOX_TOL_PX = 1;
const CONF_TOL = 1e-3;

const engine = new InferenceEngine({ intraOpNumThreads: 1 });
const worst = { detectBoxPx: 0, detectConf: 0, output0: 0, segBoxPx: 0, segConf: 0, segMaskPixelsRel: 0, segPolygonVertexPx: 0, segMinIoU: 1, clsProb: 0 };

afterAll(async () => {
  await engine.close();
  console.log(`inference parity (worst cases): ${JSON.stringify(worst)}`);
});

function image(file: string): Buffer {
  return readFileSync(path.join(fixture('test-images'), file));
}

/** Compares predicted boxes with a golden image entry; returns the worst box and confidence errors. */
function compareBoxes(p: Prediction, im: GoldenImage): { box: number; conf: number } {
  expect(p.imageSize).toEqual({ width: im.width, height: im.height });
  expect(p.results.map((r) => [r.class, r.name])).toEqual(im.detections.map((d) => [d.class_id, d.name]));
  let box = 0;
  let conf = 0;
  p.results.forEach((r, i) => {
    const d = im.detections[i];
    const got = [r.box!.x1, r.box!.y1, r.box!.x2, r.box!.y2];
    got.forEach((v, k) => (box = Math.max(box, Math.abs(v - d.box_xyxy[k]))));
    conf = Math.max(conf, Math.abs(r.confidence - d.confidence));
  });
  expect(box).toBeLessThanOrEqual(BOX_TOL_PX);
  expect(conf).toBeLessThanOrEqual(CONF_TOL);
  return { box, conf };
}

describe('detect parity (shapes3-detect.onnx)', () => {
  const g = readGolden<GoldenBoxes>('golden-detect.json');
  const model = fixture('shapes3-detect.onnx');

  it('has something to compare', () => {
    expect(g.images).toHaveLength(10);
    expect(g.images.flatMap((im) => im.detections)).toHaveLength(25);
  });

  it.each(g.images.map((im) => [im.file, im] as const))('%s: same detections as ultralytics', async (file, im) => {
    const p = await engine.predict(model, image(file), { conf: g.postprocess.conf, iou: g.postprocess.iou, maxDet: g.postprocess.max_det });
    expect(p.task).toBe('detect');
    expect(p.names).toEqual(['red_square', 'green_circle', 'blue_triangle']);
    expect(p.inputSize).toEqual({ width: 160, height: 160 });
    const err = compareBoxes(p, im);
    worst.detectBoxPx = Math.max(worst.detectBoxPx, err.box);
    worst.detectConf = Math.max(worst.detectConf, err.conf);
    for (const r of p.results) {
      expect(r.segments).toBeUndefined();
      expect(r.box!.x1).toBeGreaterThanOrEqual(0);
      expect(r.box!.x2).toBeLessThanOrEqual(im.width);
    }
  });

  it('raw output0 matches onnxruntime on the golden tensors for all 10 images', async () => {
    const raw = g.raw_output_file!;
    const buf = readFileSync(fixture(raw.file));
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const [n, rows, anchors] = raw.shape;
    expect(all.length).toBe(n * rows * anchors);
    let maxDiff = 0;
    for (const [i, file] of raw.order.entries()) {
      const img = await decodeImage(image(file));
      const input = toChwFloat(letterboxImage(img, letterboxGeometry(img.width, img.height, [160, 160])));
      const out = await engine.bareRun(model, input);
      expect(Object.keys(out)).toEqual(['output0']);
      expect(out.output0.dims).toEqual([1, rows, anchors]);
      const want = all.subarray(i * rows * anchors, (i + 1) * rows * anchors);
      for (let k = 0; k < want.length; k++) maxDiff = Math.max(maxDiff, Math.abs(out.output0.data[k] - want[k]));
    }
    worst.output0 = maxDiff;
    // Values are in pixels (boxes) and probabilities; the README measured 1.5e-4 between PyTorch and onnxruntime.
    expect(maxDiff).toBeLessThan(1e-3);
  });
});

/** Even-odd fill of a polygon sampled at pixel centres. */
function rasterize(xs: number[], ys: number[], w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const n = xs.length;
  for (let y = 0; y < h; y++) {
    const cy = y + 0.5;
    const hits: number[] = [];
    for (let i = 0, j = n - 1; i < n; j = i++) {
      if (ys[i] > cy !== ys[j] > cy) hits.push(xs[i] + ((cy - ys[i]) / (ys[j] - ys[i])) * (xs[j] - xs[i]));
    }
    hits.sort((a, b) => a - b);
    for (let k = 0; k + 1 < hits.length; k += 2) {
      for (let x = Math.max(0, Math.ceil(hits[k] - 0.5)); x < Math.min(w, Math.ceil(hits[k + 1] - 0.5)); x++) out[y * w + x] = 1;
    }
  }
  return out;
}

function iou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i] & b[i];
    union += a[i] | b[i];
  }
  return union === 0 ? 1 : inter / union;
}

describe('segment parity (shapes3-seg.onnx)', () => {
  const g = readGolden<GoldenBoxes>('golden-segment.json');
  const model = fixture('shapes3-seg.onnx');

  it('has something to compare', () => {
    expect(g.images.flatMap((im) => im.detections)).toHaveLength(25);
  });

  it.each(g.images.map((im) => [im.file, im] as const))('%s: same boxes, masks and polygons as ultralytics', async (file, im) => {
    const p = await engine.predict(model, image(file), { conf: g.postprocess.conf, iou: g.postprocess.iou });
    expect(p.task).toBe('segment');
    const err = compareBoxes(p, im);
    worst.segBoxPx = Math.max(worst.segBoxPx, err.box);
    worst.segConf = Math.max(worst.segConf, err.conf);
    p.results.forEach((r, i) => {
      const d = im.detections[i];
      const wantPixels = d.mask_pixels_at_input_res!;
      const rel = Math.abs(r.maskPixels! - wantPixels) / wantPixels;
      worst.segMaskPixelsRel = Math.max(worst.segMaskPixelsRel, rel);
      expect(rel).toBeLessThanOrEqual(0.02);

      const seg = r.segments!;
      expect(seg.x.length).toBe(seg.y.length);
      const gx = d.polygon_xy!.map((pt) => pt[0]);
      const gy = d.polygon_xy!.map((pt) => pt[1]);
      const overlap = iou(rasterize(seg.x, seg.y, im.width, im.height), rasterize(gx, gy, im.width, im.height));
      worst.segMinIoU = Math.min(worst.segMinIoU, overlap);
      expect(overlap).toBeGreaterThanOrEqual(0.95);
      // The contour tracer is a port of OpenCV's, so vertices agree up to the golden's 0.1 px rounding.
      if (seg.x.length === gx.length) {
        let v = 0;
        seg.x.forEach((x, k) => (v = Math.max(v, Math.abs(x - gx[k]), Math.abs(seg.y[k] - gy[k]))));
        worst.segPolygonVertexPx = Math.max(worst.segPolygonVertexPx, v);
      } else {
        worst.segPolygonVertexPx = Infinity;
      }
    });
  });

  it('polygon vertices agree with ultralytics masks.xy up to the golden rounding', () => {
    // Runs after the per-image cases (vitest runs a file's tests in order).
    expect(worst.segPolygonVertexPx).toBeLessThan(0.06);
  });
});

describe('classify parity (shapes3-cls.onnx)', () => {
  const g = readGolden<GoldenClassify>('golden-classify.json');
  const model = fixture('shapes3-cls.onnx');

  it.each(g.images.map((im) => [im.file, im] as const))('%s: same probabilities as ultralytics', async (file, im) => {
    const p = await engine.predict(model, readFileSync(path.join(fixture('.'), file)));
    expect(p.task).toBe('classify');
    expect(p.names).toEqual(['blue_triangle', 'green_circle', 'red_square']);
    expect(p.inputSize).toEqual({ width: 64, height: 64 });
    expect(p.probs).toHaveLength(im.probs.length);
    const diff = Math.max(...p.probs!.map((v, i) => Math.abs(v - im.probs[i])));
    worst.clsProb = Math.max(worst.clsProb, diff);
    // The README allows 2e-2 for resized images unless PIL's resampling is reproduced, which it is here.
    expect(diff).toBeLessThan(1e-4);
    expect(p.top5!.map((t) => t.class)).toEqual(im.top5.map((t) => t.class_id));
    expect(p.results.map((r) => r.name)).toEqual(im.top5.map((t) => t.name));
    if (im.ground_truth) expect(p.top5![0].name).toBe(im.ground_truth);
  });
});

describe('prediction shape', () => {
  let p: Prediction;
  beforeAll(async () => {
    p = await engine.predict(fixture('shapes3-detect.onnx'), image('test_0004.png'));
  });

  it('serialises to HUB-style results with per-stage timings', () => {
    const json = JSON.parse(JSON.stringify(p));
    expect(Object.keys(json.results[0]).sort()).toEqual(['box', 'class', 'confidence', 'name']);
    expect(Object.keys(json.results[0].box).sort()).toEqual(['x1', 'x2', 'y1', 'y2']);
    for (const stage of ['decode', 'preprocess', 'inference', 'postprocess'] as const) {
      expect(p.speed[stage]).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(p.speed[stage])).toBe(true);
    }
    expect(p.speed.inference).toBeGreaterThan(0);
  });

  it('filters by confidence and caps detections', async () => {
    const strict = await engine.predict(fixture('shapes3-detect.onnx'), image('test_0004.png'), { conf: 0.99 });
    expect(strict.results).toHaveLength(0);
    const capped = await engine.predict(fixture('shapes3-detect.onnx'), image('test_0004.png'), { maxDet: 1 });
    expect(capped.results).toEqual([p.results[0]]);
    // Barely any suppression lets the neighbouring anchors of each object through.
    const loose = await engine.predict(fixture('shapes3-detect.onnx'), image('test_0004.png'), { conf: 0.05, iou: 0.95 });
    expect(loose.results.length).toBeGreaterThan(p.results.length);
  });
});
