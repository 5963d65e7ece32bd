/**
 * Inference engine latency on the shapes3 fixture models. Run from the repository root:
 *
 *   npx tsx bench/inference.bench.ts
 *
 * Prints one JSON object. For each model it measures, after a warm-up:
 * - `predict`: InferenceEngine.predict end to end (decode, preprocess, onnxruntime, postprocess) on a warm session,
 *   for an image at the model's trained size and for a 640x480 JPEG requested at imgsz 640. The fixture models are
 *   exported with a fixed input shape, so "640" cannot change the tensor size: the 640x480 image is letterboxed (or,
 *   for classify, resized and centre-cropped) down to the model's own input. That case therefore measures the cost of
 *   a larger upload (JPEG decode, resize), not inference at 640.
 * - `bareRun`: onnxruntime's session.run on a ready tensor through InferenceEngine.bareRun (adds only a cache lookup).
 * Each measurement runs for about BUDGET_MS or MAX_RUNS runs, whichever comes first, so the whole run stays well
 * under a minute even on a busy machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { env } from 'onnxruntime-node';
import sharp from 'sharp';
import { InferenceEngine, type Prediction, type StageTimings } from '../apps/server/src/modules/inference/index.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../shared/fixtures/models');
const BUDGET_MS = 2500;
const MIN_RUNS = 20;
const MAX_RUNS = 300;
const WARMUP = 10;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

function summary(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return { runs: s.length, p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), mean: round(s.reduce((a, b) => a + b, 0) / s.length) };
}

async function measure(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < MAX_RUNS && (samples.length < MIN_RUNS || performance.now() - start < BUDGET_MS)) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

function medianStages(speeds: StageTimings[]): StageTimings {
  const med = (k: keyof StageTimings) => summary(speeds.map((s) => s[k])).p50;
  return { decode: med('decode'), preprocess: med('preprocess'), inference: med('inference'), postprocess: med('postprocess') };
}

async function main() {
  const started = performance.now();
  const threads = process.env.INFERENCE_THREADS ? Number(process.env.INFERENCE_THREADS) : undefined;
  const engine = new InferenceEngine({ intraOpNumThreads: threads });

  const detImage = readFileSync(path.join(FIXTURES, 'test-images/test_0000.png')); // 160x160, no resize needed
  const clsImage = readFileSync(path.join(FIXTURES, 'test-images-cls/green_circle', readdirFirst('test-images-cls/green_circle')));
  const large = await sharp(readFileSync(path.join(FIXTURES, 'test-images/test_0003.png')))
    .resize(640, 480)
    .jpeg({ quality: 90 })
    .toBuffer();

  const models = [
    { file: 'shapes3-detect.onnx', trained: detImage, trainedLabel: '160x160 PNG' },
    { file: 'shapes3-seg.onnx', trained: detImage, trainedLabel: '160x160 PNG' },
    { file: 'shapes3-cls.onnx', trained: clsImage, trainedLabel: '64x64 PNG' },
  ];

  const results = [];
  for (const m of models) {
    const modelPath = path.join(FIXTURES, m.file);
    const t0 = performance.now();
    const desc = await engine.load(modelPath);
    const loadMs = performance.now() - t0;
    const [, , h, w] = desc.input.shape as number[];
    const cases = [];
    for (const c of [
      { name: 'trained-size', image: m.trained, label: m.trainedLabel, imgsz: desc.metadata!.imgsz[0] },
      { name: 'imgsz-640', image: large, label: '640x480 JPEG', imgsz: 640 },
    ]) {
      const speeds: StageTimings[] = [];
      let last: Prediction | undefined;
      const samples = await measure(async () => {
        last = await engine.predict(modelPath, c.image, { imgsz: c.imgsz });
        speeds.push(last.speed);
      });
      cases.push({
        case: c.name,
        image: c.label,
        imgsz: c.imgsz,
        inputSize: last!.inputSize,
        results: last!.results.length,
        predictMs: summary(samples),
        stagesMedianMs: medianStages(speeds.slice(WARMUP)),
      });
    }
    const tensor = new Float32Array(3 * h * w).fill(0.5);
    const bare = await measure(() => engine.bareRun(modelPath, tensor));
    results.push({
      model: m.file,
      task: desc.metadata!.task,
      bytes: desc.bytes,
      input: desc.input.shape,
      dynamicInput: desc.input.dynamic,
      coldLoadMs: Math.round(loadMs * 10) / 10,
      cases,
      bareRunMs: summary(bare),
    });
  }
  const stats = engine.stats();
  await engine.close();

  const cpus = os.cpus();
  console.log(
    JSON.stringify({
      bench: 'inference-engine',
      note: 'Fixture models have fixed input shapes: imgsz-640 letterboxes a 640x480 JPEG down to the model input, so it measures decode + resize of a larger image, not inference at 640.',
      node: process.version,
      onnxruntime: env.versions.node ?? env.versions.common,
      cpu: cpus[0]?.model,
      cores: cpus.length,
      loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
      intraOpNumThreads: threads ?? 'onnxruntime default',
      models: results,
      cache: { hits: stats.hits, misses: stats.misses, evictions: stats.evictions },
      totalSeconds: Math.round((performance.now() - started) / 100) / 10,
    }),
  );
}

function readdirFirst(dir: string): string {
  return readdirSync(path.join(FIXTURES, dir))
    .filter((f) => f.endsWith('.png'))
    .sort()[0];
}

await main();
