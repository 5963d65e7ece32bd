import { predictResponseSchema } from '@sightline/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { presentPrediction, serializePrediction } from './inference.service.js';
import type { Prediction } from './types.js';

/** What the route's schema serializer writes (fastify-type-provider-zod: the schema's encode, then JSON.stringify). */
const bySchema = serializerCompiler({ schema: predictResponseSchema, method: 'POST', url: '/v1/predict/:modelId' });
const model = { id: 'mdl_1' } as Parameters<typeof presentPrediction>[1];
const base = (over: Partial<Prediction>): Prediction => ({
  task: 'detect',
  names: ['a', 'b "quoted"', 'ü\\'],
  imageSize: { width: 640, height: 480 },
  inputSize: { width: 640, height: 480 },
  results: [],
  speed: { decode: 1.25, preprocess: 2.5, inference: 3.125, postprocess: 0.0625 },
  ...over,
});

describe('serializePrediction', () => {
  const cases: Record<string, Prediction> = {
    classify: base({
      task: 'classify',
      names: Array.from({ length: 1000 }, (_, i) => `class_${i}`),
      inputSize: { width: 224, height: 224 },
      results: [0, 7, 999].map((c, i) => ({ class: c, name: `class_${c}`, confidence: 0.5 / (i + 1) })),
      probs: Array.from({ length: 1000 }, () => 0.001),
      top5: [{ class: 0, name: 'class_0', confidence: 0.5 }],
    }),
    detect: base({ results: [{ class: 1, name: 'b "quoted"', confidence: 0.87654, box: { x1: 1.23456, y1: 2, x2: 300.5, y2: 479.9999 } }] }),
    segment: base({
      task: 'segment',
      results: [
        {
          class: 2,
          name: 'ü\\',
          confidence: 0.5,
          box: { x1: 0, y1: 0, x2: 10, y2: 10 },
          segments: { x: [0.12345, 1, 2], y: [3, 4.56789, 5] },
          maskPixels: 42,
          protoMask: { width: 2, height: 1, data: new Uint8Array([1, 0]) },
        },
      ],
    }),
    pose: base({
      task: 'pose',
      results: [
        { class: 0, name: 'a', confidence: 0.9, box: { x1: 0, y1: 0, x2: 1, y2: 1 }, keypoints: { x: [1, 2], y: [3, 4], visible: [0.5, 0.25] } },
        { class: 0, name: 'a', confidence: 0.8, box: { x1: 0, y1: 0, x2: 1, y2: 1 }, keypoints: { x: [1], y: [3] } },
      ],
    }),
    empty: base({ results: [] }),
  };

  for (const [name, pred] of Object.entries(cases)) {
    it(`writes the schema serializer's JSON, byte for byte: ${name}`, () => {
      const answer = presentPrediction(pred, model);
      expect(serializePrediction(answer)).toBe(bySchema(answer));
      // Twice: the second time with the model's names as written the first.
      expect(serializePrediction(answer)).toBe(bySchema(answer));
    });
  }

  it('declines an answer the schema refuses (a number that is not finite), so the schema serializer answers it', () => {
    const answer = presentPrediction(base({ results: [{ class: 0, name: 'a', confidence: Number.NaN }] }), model);
    expect(serializePrediction(answer)).toBeNull();
    expect(() => bySchema(answer)).toThrow();
    const speed = presentPrediction(base({ speed: { decode: Infinity, preprocess: 1, inference: 1, postprocess: 1 } }), model);
    expect(serializePrediction(speed)).toBeNull();
  });

  it('a name that reads "null" is still written right (by the schema serializer)', () => {
    const answer = presentPrediction(base({ names: ['null'], results: [{ class: 0, name: 'null', confidence: 1 }] }), model);
    expect(serializePrediction(answer) ?? bySchema(answer)).toBe(bySchema(answer));
  });
});
