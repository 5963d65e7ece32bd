/**
 * Parity of the evaluation engine with the real ultralytics `val` (ADR 0034). The fixtures in test/fixtures/eval were
 * made by scripts/fixtures/eval/make-eval-fixtures.sh with ultralytics 8.3.166: short fine-tuned detect and segment
 * checkpoints (mAP50 ≈ 0.63, classes confused) and the shared shapes3 detector, each scored by
 * `val(batch=1, rect=False, conf=0.001, iou=0.7, max_det=300)` on the `.pt`. Here the same models' static ONNX exports
 * run through the server's inference engine with val's NMS options, feed the metrics engine, and must land within
 * 0.005 of ultralytics' mAP50 and mAP50-95, overall and per class, with the same confusion matrix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { classificationEvalResultSchema, detectionEvalResultSchema } from '@sightline/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ClassificationMetrics,
  DetectionMetrics,
  evalPredictOptions,
  toEvalPredictions,
  type DetectionTask,
  type EvalBox,
} from '../src/modules/evaluation/metrics/index.js';
import { InferenceEngine } from '../src/modules/inference/inference.engine.js';
import { fixture } from '../src/modules/inference/test-fixtures.js';

const DIR = path.resolve(import.meta.dirname, 'fixtures/eval');
const MAP_TOL = 0.005;

interface RefBlock {
  precision: number;
  recall: number;
  mAP50: number;
  'mAP50-95': number;
  perClass: Record<string, { classId: number; precision: number; recall: number; mAP50: number; 'mAP50-95': number }>;
}
interface RefModel {
  task: DetectionTask;
  onnx: string;
  dataset: 'evalshapes' | 'shapes3-test';
  names: string[];
  box: RefBlock;
  mask?: RefBlock;
  instances: number[];
  images: number[];
  confusionMatrix: number[][];
}
interface DatasetImage {
  file: string;
  width: number;
  height: number;
  detect: string[];
  segment?: string[];
}

interface RefClassify {
  names: string[];
  top1: number;
  top5: number;
  confusionMatrix: number[][];
}

const reference = JSON.parse(readFileSync(path.join(DIR, 'reference.json'), 'utf8')) as {
  models: Record<string, RefModel>;
  classify: Record<string, RefClassify>;
};
const dataset = JSON.parse(readFileSync(path.join(DIR, 'dataset.json'), 'utf8')) as Record<'evalshapes' | 'shapes3-test', DatasetImage[]> & {
  'evalshapes-cls': Array<{ file: string; classId: number }>;
};
const engine = new InferenceEngine({ intraOpNumThreads: 1 });
const worst: Record<string, number> = {};

afterAll(async () => {
  await engine.close();
  console.log(`evaluation parity (worst absolute differences to ultralytics val): ${JSON.stringify(worst)}`);
});

/** A YOLO label line in original-image pixels: boxes from `cls cx cy w h`, polygons (and their bounds) from segments. */
function parseLabel(line: string, w: number, h: number, task: DetectionTask): EvalBox {
  const [cls, ...v] = line.trim().split(/\s+/).map(Number);
  if (task === 'segment') {
    const polygon = v.map((x, i) => (i % 2 === 0 ? x * w : x * h));
    const xs = polygon.filter((_, i) => i % 2 === 0);
    const ys = polygon.filter((_, i) => i % 2 === 1);
    return { classId: cls, polygon, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
  }
  const [cx, cy, bw, bh] = v;
  return { classId: cls, box: [(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h] };
}

function compare(
  key: string,
  got: {
    mAP50: number;
    mAP50_95: number;
    perClass: Array<{ name: string; mAP50: number | null; mAP50_95: number | null; precision: number | null; recall: number | null }>;
    precision: number;
    recall: number;
  },
  want: RefBlock,
) {
  const note = (k: string, d: number) => (worst[`${key}.${k}`] = Math.max(worst[`${key}.${k}`] ?? 0, Math.round(d * 1e6) / 1e6));
  note('mAP', Math.max(Math.abs(got.mAP50 - want.mAP50), Math.abs(got.mAP50_95 - want['mAP50-95'])));
  note('PR', Math.max(Math.abs(got.precision - want.precision), Math.abs(got.recall - want.recall)));
  expect(got.mAP50).toBeCloseTo(want.mAP50, 2);
  expect(Math.abs(got.mAP50 - want.mAP50)).toBeLessThanOrEqual(MAP_TOL);
  expect(Math.abs(got.mAP50_95 - want['mAP50-95'])).toBeLessThanOrEqual(MAP_TOL);
  for (const [name, c] of Object.entries(want.perClass)) {
    const mine = got.perClass.find((p) => p.name === name);
    expect(mine, name).toBeDefined();
    note('classMAP', Math.max(Math.abs(mine!.mAP50! - c.mAP50), Math.abs(mine!.mAP50_95! - c['mAP50-95'])));
    note('classPR', Math.max(Math.abs(mine!.precision! - c.precision), Math.abs(mine!.recall! - c.recall)));
    expect(Math.abs(mine!.mAP50! - c.mAP50), `${name} mAP50`).toBeLessThanOrEqual(MAP_TOL);
    expect(Math.abs(mine!.mAP50_95! - c['mAP50-95']), `${name} mAP50-95`).toBeLessThanOrEqual(MAP_TOL);
  }
}

describe.each(Object.entries(reference.models))('%s against ultralytics val', (key, ref) => {
  it('matches mAP50, mAP50-95 (overall and per class) and the confusion matrix', { timeout: 120_000 }, async () => {
    const onnx = ref.dataset === 'shapes3-test' ? fixture('shapes3-detect.onnx') : path.join(DIR, ref.onnx);
    const imagesDir = ref.dataset === 'shapes3-test' ? fixture('test-images') : path.join(DIR, 'images');
    const metrics = new DetectionMetrics({ task: ref.task, classNames: ref.names });
    for (const im of dataset[ref.dataset]) {
      const p = await engine.predict(onnx, readFileSync(path.join(imagesDir, im.file)), evalPredictOptions(ref.task));
      expect(p.imageSize).toEqual({ width: im.width, height: im.height });
      const lines = ref.task === 'segment' ? im.segment! : im.detect;
      metrics.addImage({
        imageId: im.file,
        width: im.width,
        height: im.height,
        labels: lines.map((l) => parseLabel(l, im.width, im.height, ref.task)),
        ...toEvalPredictions(p),
      });
    }
    const r = metrics.finish();
    // the result is what the contract says the web app gets
    expect(detectionEvalResultSchema.parse(r)).toEqual(r);
    expect(r.images).toBe(dataset[ref.dataset].length);
    expect(r.box.perClass.map((c) => c.instances)).toEqual(ref.instances);
    expect(r.box.perClass.map((c) => c.images)).toEqual(ref.images);
    expect(r.confusionMatrix.matrix).toEqual(ref.confusionMatrix);
    compare(`${key}.box`, r.box, ref.box);
    if (ref.mask) compare(`${key}.mask`, r.mask!, ref.mask);
  });
});

describe('shapes3-cls on colour-shuffled crops against ultralytics val', () => {
  const ref = reference.classify['shapes3-cls'];
  it('has the same top-1, top-5 and confusion matrix', { timeout: 60_000 }, async () => {
    const metrics = new ClassificationMetrics({ classNames: ref.names });
    const crops = dataset['evalshapes-cls'];
    for (const crop of crops) {
      const p = await engine.predict(fixture('shapes3-cls.onnx'), readFileSync(path.join(DIR, 'cls-images', crop.file)));
      expect(p.names).toEqual(ref.names);
      // the crops' folders name the class; their ids in dataset.json follow the detection order of the names
      const label = ref.names.indexOf(reference.models['evalshapes-detect'].names[crop.classId]);
      metrics.addImage({ imageId: crop.file, labelClassId: label, probabilities: p.probs! });
    }
    const r = metrics.finish();
    expect(classificationEvalResultSchema.parse(r)).toEqual(r);
    expect(r.images).toBe(crops.length);
    expect(Math.abs(r.top1 - ref.top1)).toBeLessThan(1e-6);
    expect(Math.abs(r.top5 - ref.top5)).toBeLessThan(1e-6);
    // ultralytics 8.3 sizes the classify matrix (nc+1)² like detection's, the extra row and column always empty
    const nc = ref.names.length;
    expect(
      ref.confusionMatrix
        .slice(nc)
        .flat()
        .concat(ref.confusionMatrix.map((row) => row[nc]))
        .every((v) => v === 0),
    ).toBe(true);
    expect(r.confusionMatrix.matrix).toEqual(ref.confusionMatrix.slice(0, nc).map((row) => row.slice(0, nc)));
    expect(r.top1).toBeLessThan(0.9); // a case where classes are confused, unlike shapes3's own test crops
  });
});
