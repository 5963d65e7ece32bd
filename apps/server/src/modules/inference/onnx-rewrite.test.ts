/**
 * The load-time DFL rewrite (onnx-rewrite.ts, ADR 0041): it finds the exported pattern in the real fixture models,
 * the rewritten sessions give the original sessions' outputs on real images, and every model that is not exactly the
 * pattern is left alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';
import { InferenceEngine, sessionOptions } from './inference.engine.js';
import { readOnnxMetadata } from './onnx-metadata.js';
import { rewriteDfl } from './onnx-rewrite.js';
import { letterboxGeometry, letterboxToChw } from './preprocess.js';
import { fixture, lenField, varint, varintField } from './test-fixtures.js';

const RECT = path.resolve(import.meta.dirname, '../../../test/fixtures/rect');
const DETECTORS = [fixture('shapes3-detect.onnx'), fixture('shapes3-seg.onnx'), path.join(RECT, 'shapes3-seg-dynamic.onnx')];

/** |a - b| ≤ 1e-5 × max(1, |a|): absolute for the scores, relative for the box coordinates (up to 640). */
function maxRelDiff(a: Float32Array, b: Float32Array): number {
  expect(b.length).toBe(a.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(a[i])));
  return worst;
}

async function imageInput(file: string, size: number, rect: boolean): Promise<{ input: Float32Array; dims: number[] }> {
  const img = await decodeImage(readFileSync(path.join(fixture('test-images'), file)));
  const geo = letterboxGeometry(img.width, img.height, [size, size], { auto: rect, stride: 32 });
  return { input: letterboxToChw(img, geo), dims: [1, 3, geo.output.height, geo.output.width] };
}

describe('rewriteDfl on the real exports', () => {
  it.each(DETECTORS)('rewrites the DFL of %s, the same from a path as from bytes', async (file) => {
    const bytes = readFileSync(file);
    const fromPath = await rewriteDfl(file);
    const fromBytes = await rewriteDfl(bytes);
    expect(fromPath?.sites).toEqual(['/model.22/dfl/conv/Conv']);
    expect(Buffer.from(fromBytes!.bytes).equals(Buffer.from(fromPath!.bytes))).toBe(true);
    // Four small nodes for three: a few dozen bytes, everything else copied.
    expect(Math.abs(fromPath!.bytes.length - bytes.length)).toBeLessThan(200);
    expect(await readOnnxMetadata(fromPath!.bytes)).toEqual(await readOnnxMetadata(bytes));
    // Nothing left to rewrite.
    expect(await rewriteDfl(fromPath!.bytes)).toBeUndefined();
  });

  it('leaves the classifier alone', async () => {
    expect(await rewriteDfl(fixture('shapes3-cls.onnx'))).toBeUndefined();
    expect(await rewriteDfl(readFileSync(fixture('shapes3-cls.onnx')))).toBeUndefined();
  });

  it.each([
    ['shapes3-detect.onnx', 'test_0003.png', 160, false],
    ['shapes3-seg.onnx', 'test_0001.png', 160, false],
    [path.join(RECT, 'shapes3-seg-dynamic.onnx'), 'test_0003.png', 640, true],
    [path.join(RECT, 'shapes3-seg-dynamic.onnx'), 'test_0005.png', 320, true],
  ] as const)('%s: the rewritten session gives the original outputs on %s at %d (rect %s)', async (name, image, size, rect) => {
    const file = path.isAbsolute(name) ? name : fixture(name);
    const rewritten = await rewriteDfl(file);
    const [a, b] = await Promise.all([InferenceSession.create(file, sessionOptions()), InferenceSession.create(rewritten!.bytes, sessionOptions())]);
    try {
      const { input, dims } = await imageInput(image, size, rect);
      const feed = { [a.inputNames[0]]: new Tensor('float32', input, dims) };
      const [oa, ob] = [await a.run(feed), await b.run(feed)];
      expect(b.outputNames).toEqual(a.outputNames);
      for (const out of a.outputNames) {
        expect(ob[out].dims).toEqual(oa[out].dims);
        expect(maxRelDiff(oa[out].data as Float32Array, ob[out].data as Float32Array)).toBeLessThanOrEqual(1e-5);
      }
    } finally {
      await Promise.all([a.release(), b.release()]);
    }
  });
});

describe('InferenceEngine loads the rewritten DFL', () => {
  const on = new InferenceEngine({ intraOpNumThreads: 1 });
  const off = new InferenceEngine({ intraOpNumThreads: 1, rewriteDfl: false });
  afterAll(async () => {
    await Promise.all([on.close(), off.close()]);
  });

  it('gives the same predictions as without the rewrite, from a path and from bytes', async () => {
    const file = fixture('shapes3-detect.onnx');
    const { input, dims } = await imageInput('test_0002.png', 160, false);
    const want = (await off.bareRun(file, input, dims)).output0;
    const fromPath = (await on.bareRun(file, input, dims)).output0;
    const fromBytes = (await on.bareRun({ id: 'detect', bytes: readFileSync(file) }, input, dims)).output0;
    expect(maxRelDiff(want.data, fromPath.data)).toBeLessThanOrEqual(1e-5);
    expect(maxRelDiff(want.data, fromBytes.data)).toBeLessThanOrEqual(1e-5);
    // The cache still counts the model's file size.
    expect(on.stats().models.find((m) => m.key === path.resolve(file))?.bytes).toBe(readFileSync(file).length);
  });
});

// --- small synthetic graphs: the pattern and its near misses ---------------------------------------------------------

const s = (v: string) => new TextEncoder().encode(v);
const f32 = (xs: number[]) => new Uint8Array(new Float32Array(xs).buffer);
const intsAttr = (name: string, xs: number[]) => [...lenField(1, s(name)), ...xs.flatMap((x) => varintField(8, x)), ...varintField(20, 7)];
const intAttr = (name: string, x: number) => [...lenField(1, s(name)), ...varintField(3, x), ...varintField(20, 2)];
const node = (op: string, inputs: string[], outputs: string[], attrs: number[][] = []) => [
  ...inputs.flatMap((i) => lenField(1, s(i))),
  ...outputs.flatMap((o) => lenField(2, s(o))),
  ...lenField(3, s(`${op}_${outputs[0]}`)),
  ...lenField(4, s(op)),
  ...attrs.flatMap((a) => lenField(5, a)),
];
const tensor = (name: string, dims: number[], values: number[]) => [
  ...dims.flatMap((d) => varintField(1, d)),
  ...varintField(2, 1),
  ...lenField(8, s(name)),
  ...lenField(9, f32(values)),
];
const valueInfo = (name: string, dims: number[]) => [
  ...lenField(1, s(name)),
  ...lenField(
    2,
    lenField(1, [
      ...varintField(1, 1),
      ...lenField(
        2,
        dims.flatMap((d) => lenField(1, varintField(1, d))),
      ),
    ]),
  ),
];

interface Spec {
  opset?: number;
  perm?: number[];
  axis?: number | null;
  convAttrs?: number[][];
  bias?: boolean;
  weightDims?: number[];
  /** Also make the softmax a graph output (a second use). */
  exposeSoftmax?: boolean;
  /** A second node reading the weight. */
  shareWeight?: boolean;
  /** The weight as a graph input rather than an initializer. */
  weightAsInput?: boolean;
  valueInfo?: boolean;
}

/** X [1,4,16,8] → Transpose → Softmax → Conv(W [1,16,1,1]) → Y [1,1,4,8], as ultralytics exports the DFL. */
function model(spec: Spec = {}): Uint8Array {
  const w = Array.from({ length: 16 }, (_, i) => i);
  const nodes = [
    node('Transpose', ['X'], ['T'], [intsAttr('perm', spec.perm ?? [0, 2, 1, 3])]),
    node('Softmax', ['T'], ['S'], spec.axis === null ? [] : [intAttr('axis', spec.axis ?? 1)]),
    node(
      'Conv',
      spec.bias ? ['S', 'W', 'B'] : ['S', 'W'],
      ['Y'],
      spec.convAttrs ?? [intsAttr('kernel_shape', [1, 1]), intAttr('group', 1), intsAttr('strides', [1, 1])],
    ),
  ];
  if (spec.shareWeight) nodes.push(node('Identity', ['W'], ['W2']));
  const inits = spec.weightAsInput ? [] : [tensor('W', spec.weightDims ?? [1, 16, 1, 1], w)];
  if (spec.bias) inits.push(tensor('B', [1], [0.5]));
  const graph = [
    ...nodes.flatMap((n) => lenField(1, n)),
    ...lenField(2, s('dfl')),
    ...inits.flatMap((t) => lenField(5, t)),
    ...lenField(11, valueInfo('X', [1, 4, 16, 8])),
    ...(spec.weightAsInput ? lenField(11, valueInfo('W', [1, 16, 1, 1])) : []),
    ...lenField(12, valueInfo('Y', [1, 1, 4, 8])),
    ...(spec.exposeSoftmax ? lenField(12, valueInfo('S', [1, 16, 4, 8])) : []),
    ...(spec.shareWeight ? lenField(12, valueInfo('W2', [1, 16, 1, 1])) : []),
    ...(spec.valueInfo
      ? [...lenField(13, valueInfo('T', [1, 16, 4, 8])), ...lenField(13, valueInfo('S', [1, 16, 4, 8])), ...lenField(13, valueInfo('Y', [1, 1, 4, 8]))]
      : []),
  ];
  return new Uint8Array([...varintField(1, 8), ...lenField(7, graph), ...lenField(8, [...lenField(1, []), ...varintField(2, spec.opset ?? 17)])]);
}

describe('rewriteDfl on synthetic graphs', () => {
  it.each([{}, { valueInfo: true }])('rewrites the exact pattern %o to the same values', async (spec) => {
    const original = model(spec);
    const rewritten = await rewriteDfl(original);
    expect(rewritten?.sites).toEqual(['Conv_Y']);
    const [a, b] = await Promise.all([InferenceSession.create(original), InferenceSession.create(rewritten!.bytes)]);
    const x = Float32Array.from({ length: 4 * 16 * 8 }, (_, i) => Math.sin(i * 1.7) * 6);
    const feed = { X: new Tensor('float32', x, [1, 4, 16, 8]) };
    const [ya, yb] = [(await a.run(feed)).Y, (await b.run(feed)).Y];
    expect(yb.dims).toEqual([1, 1, 4, 8]);
    expect(maxRelDiff(ya.data as Float32Array, yb.data as Float32Array)).toBeLessThanOrEqual(1e-5);
    await Promise.all([a.release(), b.release()]);
  });

  it.each<[string, Spec]>([
    ['another permutation', { perm: [0, 2, 3, 1] }],
    ['a softmax over another axis', { axis: 2 }],
    ['a softmax with the default axis', { axis: null }],
    ['opset 12 (Softmax flattens)', { opset: 12 }],
    ['a conv with a bias', { bias: true }],
    ['a strided conv', { convAttrs: [intsAttr('kernel_shape', [1, 1]), intsAttr('strides', [2, 2])] }],
    ['a grouped conv', { convAttrs: [intAttr('group', 2)] }],
    ['a conv with an unknown attribute', { convAttrs: [intAttr('foo', 1)] }],
    ['a softmax that is also a graph output', { exposeSoftmax: true }],
    ['a weight used twice', { shareWeight: true }],
    ['a weight that is a graph input', { weightAsInput: true }],
    ['a weight of other dims', { weightDims: [1, 16, 1, 1, 1] }],
  ])('leaves %s alone', async (_, spec) => {
    expect(await rewriteDfl(model(spec))).toBeUndefined();
  });

  it('leaves bytes that are not a model alone without throwing', async () => {
    const good = model();
    expect(await rewriteDfl(good.subarray(0, good.length - 5))).toBeUndefined();
    expect(await rewriteDfl(new Uint8Array([0, 1, 2, 3]))).toBeUndefined();
    expect(await rewriteDfl(new Uint8Array(varint(2 ** 40)))).toBeUndefined();
    expect(await rewriteDfl('/nonexistent/model.onnx')).toBeUndefined();
  });
});
