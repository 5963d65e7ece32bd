/**
 * The engine at the size of a real evaluation (1,000 images × 300 predictions at val's conf 0.001, 80 classes): it
 * must stay a small share of the model's own time (ADR 0034), and keep only per-prediction numbers.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { DetectionMetrics } from './detection-metrics.js';
import type { EvalBox } from './types.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('scale', () => {
  it('scores 1,000 images × 300 predictions in well under the time the model takes for them', () => {
    const r = rng(7);
    const names = Array.from({ length: 80 }, (_, i) => `c${i}`);
    const m = new DetectionMetrics({ task: 'detect', classNames: names });
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) {
      const labels: EvalBox[] = Array.from({ length: 8 }, () => {
        const x = r() * 560;
        const y = r() * 560;
        return { classId: Math.floor(r() * 80), box: [x, y, x + 20 + r() * 60, y + 20 + r() * 60] };
      });
      const predictions: EvalBox[] = Array.from({ length: 300 }, (_, j) => {
        const l = labels[j % labels.length];
        const jitter = j < 16 ? 4 : 200;
        const [x1, y1, x2, y2] = l.box;
        const dx = (r() - 0.5) * jitter;
        const dy = (r() - 0.5) * jitter;
        return {
          classId: j < 16 ? l.classId : Math.floor(r() * 80),
          confidence: j < 16 ? 0.5 + r() / 2 : r() * 0.3,
          box: [x1 + dx, y1 + dy, x2 + dx, y2 + dy],
        };
      });
      predictions.sort((a, b) => b.confidence! - a.confidence!);
      m.addImage({ imageId: String(i), width: 640, height: 640, labels, predictions });
    }
    const t1 = performance.now();
    const res = m.finish();
    const t2 = performance.now();
    console.log(`metrics engine: addImage ${(t1 - t0).toFixed(0)} ms for 1000 images, finish ${(t2 - t1).toFixed(0)} ms`);
    expect(res.predictions).toBe(300_000);
    expect(res.box.mAP50).toBeGreaterThan(0.3);
    // yolov8n at 640 takes ~50-100 ms per image on this machine's CPU: 1,000 images ≈ 60 s; the metrics stay far under that (20 s allows a loaded machine)
    expect(t2 - t0).toBeLessThan(20_000);
  });
});

describe('scale (segment)', () => {
  it('compares masks on the 160×160 prototype grid of a 640 model without touching every pixel pair', () => {
    const r = rng(11);
    const names = ['a', 'b', 'c'];
    const m = new DetectionMetrics({ task: 'segment', classNames: names });
    const grid = { inputWidth: 640, inputHeight: 640, resizedWidth: 640, resizedHeight: 640, padLeft: 0, padTop: 0, ratio: 4 };
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) {
      const labels: EvalBox[] = Array.from({ length: 20 }, () => {
        const x = r() * 560;
        const y = r() * 560;
        const s = 20 + r() * 60;
        const polygon = Array.from({ length: 64 }, (_, k) => [
          x + s / 2 + (s / 2) * Math.cos((k / 32) * Math.PI),
          y + s / 2 + (s / 2) * Math.sin((k / 32) * Math.PI),
        ]).flat();
        return { classId: Math.floor(r() * 3), box: [x, y, x + s, y + s], polygon };
      });
      const predictions: EvalBox[] = Array.from({ length: 100 }, (_, j) => {
        const l = labels[j % labels.length];
        const data = new Uint8Array(160 * 160);
        const [x1, y1, x2, y2] = l.box.map((v) => Math.round(v / 4));
        for (let y = y1; y < y2; y++) data.fill(1, y * 160 + x1, y * 160 + x2);
        return { classId: j < 20 ? l.classId : Math.floor(r() * 3), confidence: r(), box: l.box, mask: { width: 160, height: 160, data } };
      });
      predictions.sort((a, b) => b.confidence! - a.confidence!);
      m.addImage({ imageId: String(i), width: 640, height: 640, labels, predictions, maskGrid: grid });
    }
    const res = m.finish();
    const ms = performance.now() - t0;
    console.log(`metrics engine (segment 640): ${(ms / 50).toFixed(1)} ms per image with 20 labels × 100 predictions`);
    expect(res.mask!.mAP50).toBeGreaterThan(0);
    expect(ms / 50).toBeLessThan(200);
  });
});
