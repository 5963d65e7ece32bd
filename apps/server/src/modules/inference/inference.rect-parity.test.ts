/**
 * Rectangular inference (ADR 0041): the shared shapes3 segment model exported the way the server's export jobs
 * export ONNX (`dynamic=True`) runs at the letterboxed rectangle, and its results equal the real ultralytics 8.3.166
 * predictor's on the .pt at its default rect=True input, at two sizes. Goldens from scripts/fixtures/rect/. Tolerances
 * are those of the square parity test (inference.parity.test.ts): same detections in the same order, boxes within
 * 1 px, scores within 1e-3 (torch vs onnxruntime), mask pixels within 2 %, outlines overlapping ≥ 0.95.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InferenceEngine } from './inference.engine.js';
import { fixture } from './test-fixtures.js';

const RECT = path.resolve(import.meta.dirname, '../../../test/fixtures/rect');

interface RectDetection {
  class_id: number;
  name: string;
  confidence: number;
  box_xyxy: [number, number, number, number];
  mask_pixels_at_input_res: number;
  polygon_xy: Array<[number, number]>;
}
interface RectImage {
  file: string;
  width: number;
  height: number;
  input_hw: [number, number];
  detections: RectDetection[];
}
interface RectGolden {
  predict: { conf: number; iou: number; max_det: number; rect: boolean };
  segment: { pt: string; onnx: string; sizes: Record<string, RectImage[]> };
}

const golden = JSON.parse(readFileSync(path.join(RECT, 'golden-rect.json'), 'utf8')) as RectGolden;
const model = path.join(RECT, golden.segment.onnx);
const engine = new InferenceEngine({ intraOpNumThreads: 1 });
const worst = { boxPx: 0, conf: 0, maskPixelsRel: 0, minIoU: 1 };

afterAll(async () => {
  await engine.close();
  console.log(`rectangular inference parity (worst cases): ${JSON.stringify(worst)}`);
});

/** Even-odd fill of a polygon sampled at pixel centres. */
function rasterize(pts: Array<[number, number]>, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const cy = y + 0.5;
    const hits: number[] = [];
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i];
      const [xj, yj] = pts[j];
      if (yi > cy !== yj > cy) hits.push(xi + ((cy - yi) / (yj - yi)) * (xj - xi));
    }
    hits.sort((a, b) => a - b);
    for (let k = 0; k + 1 < hits.length; k += 2)
      for (let x = Math.max(0, Math.ceil(hits[k] - 0.5)); x < Math.min(w, Math.ceil(hits[k + 1] - 0.5)); x++) out[y * w + x] = 1;
  }
  return out;
}

function maskIoU(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i] & b[i];
    union += a[i] | b[i];
  }
  return union === 0 ? 1 : inter / union;
}

describe('rectangular inference parity (shapes3-seg exported with dynamic=True)', () => {
  it('has something to compare, at rectangles ultralytics really ran', () => {
    const all = Object.values(golden.segment.sizes).flat();
    expect(golden.predict.rect).toBe(true);
    expect(all.flatMap((im) => im.detections).length).toBeGreaterThanOrEqual(40);
    // Most images are not square: their input is a rectangle, not the square a static export needs.
    expect(all.filter((im) => im.input_hw[0] !== im.input_hw[1]).length).toBeGreaterThanOrEqual(12);
  });

  it('loads as a dynamic model', async () => {
    const d = await engine.load(model);
    expect(d.input.dynamic).toBe(true);
    expect(d.metadata?.args?.dynamic).toBe(true);
  });

  const cases = Object.entries(golden.segment.sizes).flatMap(([size, images]) => images.map((im) => [`imgsz ${size} ${im.file}`, Number(size), im] as const));
  it.each(cases)('%s: the same input rectangle, boxes and masks as ultralytics', async (_label, imgsz, im) => {
    const bytes = readFileSync(path.join(fixture('test-images'), im.file));
    const p = await engine.predict(model, bytes, { imgsz, conf: golden.predict.conf, iou: golden.predict.iou, maxDet: golden.predict.max_det });
    expect(p.inputSize).toEqual({ width: im.input_hw[1], height: im.input_hw[0] });
    expect(p.imageSize).toEqual({ width: im.width, height: im.height });
    expect(p.results.map((r) => [r.class, r.name])).toEqual(im.detections.map((d) => [d.class_id, d.name]));
    p.results.forEach((r, i) => {
      const d = im.detections[i];
      const got = [r.box!.x1, r.box!.y1, r.box!.x2, r.box!.y2];
      const box = Math.max(...got.map((v, k) => Math.abs(v - d.box_xyxy[k])));
      const conf = Math.abs(r.confidence - d.confidence);
      worst.boxPx = Math.max(worst.boxPx, box);
      worst.conf = Math.max(worst.conf, conf);
      expect(box).toBeLessThanOrEqual(1);
      expect(conf).toBeLessThanOrEqual(1e-3);
      const rel = Math.abs(r.maskPixels! - d.mask_pixels_at_input_res) / d.mask_pixels_at_input_res;
      worst.maskPixelsRel = Math.max(worst.maskPixelsRel, rel);
      expect(rel).toBeLessThanOrEqual(0.02);
      const ours = r.segments!.x.map((x, k) => [x, r.segments!.y[k]] as [number, number]);
      const overlap = maskIoU(rasterize(ours, im.width, im.height), rasterize(d.polygon_xy, im.width, im.height));
      worst.minIoU = Math.min(worst.minIoU, overlap);
      expect(overlap).toBeGreaterThanOrEqual(0.95);
    });
  });

  it("evaluations (val's square letterbox) see the same input and boxes from the dynamic export as from the static one", async () => {
    for (const file of ['test_0003.png', 'test_0007.png', 'test_0008.png']) {
      const bytes = readFileSync(path.join(fixture('test-images'), file));
      const opts = { imgsz: 160, conf: 0.001, iou: 0.7, valLetterbox: true, multiLabel: true, protoMasks: true };
      const dyn = await engine.predict(model, bytes, opts);
      const stat = await engine.predict(fixture('shapes3-seg.onnx'), bytes, opts);
      expect(dyn.inputSize).toEqual({ width: 160, height: 160 });
      expect(dyn.maskGrid).toEqual(stat.maskGrid);
      expect(dyn.results.length).toBe(stat.results.length);
      const strong = (p: typeof dyn) => p.results.filter((r) => r.confidence > 0.25).map((r) => [r.class, r.box!.x1, r.box!.y1, r.box!.x2, r.box!.y2]);
      const a = strong(dyn);
      const b = strong(stat);
      expect(a.map((r) => r[0])).toEqual(b.map((r) => r[0]));
      a.forEach((r, i) => r.slice(1).forEach((v, k) => expect(Math.abs(v - b[i][k + 1])).toBeLessThan(0.01)));
    }
  });

  it('still runs the full square when asked (rect: false), as a static export would', async () => {
    const bytes = readFileSync(path.join(fixture('test-images'), 'test_0003.png'));
    const p = await engine.predict(model, bytes, { imgsz: 160, rect: false });
    expect(p.inputSize).toEqual({ width: 160, height: 160 });
  });
});
