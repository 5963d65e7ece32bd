/**
 * Paths the real fixtures do not cover (pose, end-to-end outputs, dynamic input shapes, models without ultralytics
 * metadata), exercised through real onnxruntime sessions on tiny ONNX graphs built here: a Constant node whose value
 * is the head output we want to post-process, and a dynamic or fixed image input.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { InferenceEngine } from './inference.engine.js';
import { lenField, varintField } from './test-fixtures.js';

// --- a minimal ONNX writer on the shared protobuf helpers ----------------------------------------------------------
const utf8 = (s: string) => [...new TextEncoder().encode(s)];
const len = lenField;
const num = varintField;
const str = (field: number, s: string) => len(field, utf8(s));

function valueInfo(name: string, dims: Array<number | string>): number[] {
  const shape = dims.flatMap((d) => len(1, typeof d === 'number' ? num(1, d) : str(2, d)));
  return [...str(1, name), ...len(2, len(1, [...num(1, 1), ...len(2, shape)]))];
}

function constantModel(opts: {
  input: Array<number | string>;
  outputs: Array<{ name: string; dims: number[]; data: number[] }>;
  props?: Record<string, string>;
}): Uint8Array {
  const nodes = opts.outputs.flatMap((o) => {
    const raw = [...new Uint8Array(Float32Array.from(o.data).buffer)];
    const tensor = [...o.dims.flatMap((d) => num(1, d)), ...num(2, 1), ...len(9, raw)];
    const attr = [...str(1, 'value'), ...num(20, 4), ...len(5, tensor)];
    return len(1, [...str(2, o.name), ...str(3, `const_${o.name}`), ...str(4, 'Constant'), ...len(5, attr)]);
  });
  const graph = [...nodes, ...str(2, 'g'), ...len(11, valueInfo('images', opts.input)), ...opts.outputs.flatMap((o) => len(12, valueInfo(o.name, o.dims)))];
  const props = Object.entries(opts.props ?? {}).flatMap(([k, v]) => len(14, [...str(1, k), ...str(2, v)]));
  return Uint8Array.from([...num(1, 8), ...str(2, 'test'), ...len(7, graph), ...len(8, [...str(1, ''), ...num(2, 17)]), ...props]);
}

/** [1, rows, anchors] channel-first layout from per-anchor rows. */
function head(rows: number[][]): { dims: number[]; data: number[] } {
  const c = rows[0].length;
  const data = new Array<number>(c * rows.length);
  rows.forEach((r, a) => r.forEach((v, k) => (data[k * rows.length + a] = v)));
  return { dims: [1, c, rows.length], data };
}

const engine = new InferenceEngine({ intraOpNumThreads: 1 });
afterAll(() => engine.close());

const grey = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#404040' } })
    .png()
    .toBuffer();
const base = { stride: '32', imgsz: '[64, 64]', names: "{0: 'thing', 1: 'other'}" };

describe('pose models', () => {
  // One anchor above threshold: box centred at (32, 32), 20x10, two keypoints (x, y, visibility).
  const output0 = head([
    [32, 32, 20, 10, 0.9, 0.1, 30, 30, 0.8, 34, 40, 0.3],
    [10, 10, 4, 4, 0.1, 0.2, 0, 0, 0, 0, 0, 0],
  ]);
  const model = {
    id: 'pose',
    bytes: constantModel({
      input: [1, 3, 'height', 'width'],
      outputs: [{ name: 'output0', ...output0 }],
      props: { ...base, task: 'pose', kpt_shape: '[2, 3]' },
    }),
  };

  it('scales boxes and keypoints back to the image, padding dynamic inputs only to the stride', async () => {
    const p = await engine.predict(model, await grey(128, 64), { imgsz: 64 });
    // 128x64 at imgsz 64 with rect: gain 0.5, 64x32 tensor, no padding.
    expect(p.inputSize).toEqual({ width: 64, height: 32 });
    expect(p.results).toHaveLength(1);
    const [r] = p.results;
    expect(r).toMatchObject({ class: 0, name: 'thing', box: { x1: 44, y1: 54, x2: 84, y2: 64 } });
    expect(r.confidence).toBeCloseTo(0.9, 6);
    expect(r.keypoints!.x).toEqual([60, 68]);
    expect(r.keypoints!.y).toEqual([60, 64]); // clipped to the image height
    expect(r.keypoints!.visible!.map((v) => Math.round(v * 10) / 10)).toEqual([0.8, 0.3]);
  });

  it('pads to the full square without rect, and rounds imgsz up to the stride', async () => {
    const square = await engine.predict(model, await grey(128, 64), { imgsz: 64, rect: false });
    expect(square.inputSize).toEqual({ width: 64, height: 64 });
    // Top pad 16: box y (27 - 16) / 0.5 = 22.
    expect(square.results[0].box).toMatchObject({ x1: 44, y1: 22, x2: 84, y2: 42 });
    expect((await engine.predict(model, await grey(100, 100), { imgsz: 70, rect: false })).inputSize).toEqual({ width: 96, height: 96 });
  });
});

describe('end-to-end (NMS in the graph) models', () => {
  it('reads [1, N, 6] rows as x1, y1, x2, y2, score, class', async () => {
    const rows = [
      [10, 10, 20, 30, 0.6, 1],
      [0, 0, 64, 64, 0.2, 0],
      [30, 30, 50, 50, 0.95, 0],
    ];
    const model = {
      id: 'e2e',
      bytes: constantModel({
        input: [1, 3, 64, 64],
        outputs: [{ name: 'output0', dims: [1, 3, 6], data: rows.flat() }],
        props: { ...base, task: 'detect', args: "{'batch': 1, 'nms': True}" },
      }),
    };
    const p = await engine.predict(model, await grey(64, 64));
    expect(p.results.map((r) => [r.name, r.box])).toEqual([
      ['thing', { x1: 30, y1: 30, x2: 50, y2: 50 }],
      ['other', { x1: 10, y1: 10, x2: 20, y2: 30 }],
    ]);
  });
});

describe('models the engine cannot predict with', () => {
  const out = { name: 'output0', dims: [1, 6, 1], data: [1, 1, 1, 1, 0.5, 0.5] };

  it('refuses obb models and models without metadata, but still runs them bare', async () => {
    const obb = { id: 'obb', bytes: constantModel({ input: [1, 3, 64, 64], outputs: [out], props: { ...base, task: 'obb' } }) };
    await expect(engine.predict(obb, await grey(8, 8))).rejects.toMatchObject({ code: 'unsupported_model' });
    const plain = { id: 'plain', bytes: constantModel({ input: [1, 3, 64, 64], outputs: [out] }) };
    await expect(engine.predict(plain, await grey(8, 8))).rejects.toMatchObject({ code: 'unsupported_model' });
    expect((await engine.load(plain)).metadata).toBeUndefined();
    const raw = await engine.bareRun(plain, new Float32Array(3 * 64 * 64));
    expect([...raw.output0.data]).toEqual(out.data);
  });

  it('refuses models whose outputs do not fit the task', async () => {
    const wrong = { id: 'wrong', bytes: constantModel({ input: [1, 3, 64, 64], outputs: [{ ...out, dims: [1, 2, 3] }], props: { ...base, task: 'detect' } }) };
    await expect(engine.predict(wrong, await grey(8, 8))).rejects.toMatchObject({ code: 'unsupported_model' });
    const batched = { id: 'batch4', bytes: constantModel({ input: [4, 3, 64, 64], outputs: [out], props: { ...base, task: 'detect' } }) };
    await expect(engine.load(batched)).rejects.toMatchObject({ code: 'unsupported_model' });
  });
});
