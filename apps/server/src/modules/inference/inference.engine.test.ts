import { copyFile, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InferenceError } from './errors.js';
import { DEFAULT_SPIN_MICROS, InferenceEngine, sessionOptions } from './inference.engine.js';
import { fixture } from './test-fixtures.js';

const DETECT = fixture('shapes3-detect.onnx');
const SEG = fixture('shapes3-seg.onnx');
const CLS = fixture('shapes3-cls.onnx');
const size = async (p: string) => (await stat(p)).size;
const image = () => readFile(path.join(fixture('test-images'), 'test_0003.png'));

let tmp: string;
const engines: InferenceEngine[] = [];
const newEngine = (opts: ConstructorParameters<typeof InferenceEngine>[0] = {}) => {
  const e = new InferenceEngine({ intraOpNumThreads: 1, ...opts });
  engines.push(e);
  return e;
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'inference-engine-'));
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('InferenceEngine session cache', () => {
  it('keeps sessions warm: one load per model, hits afterwards', async () => {
    const engine = newEngine();
    const img = await image();
    await engine.predict(DETECT, img);
    await engine.predict(DETECT, img);
    await engine.predict(path.relative(process.cwd(), DETECT), img); // same file, other spelling
    const s = engine.stats();
    expect({ hits: s.hits, misses: s.misses, evictions: s.evictions }).toEqual({ hits: 2, misses: 1, evictions: 0 });
    expect(s.models).toHaveLength(1);
    expect(s.models[0]).toMatchObject({ key: DETECT, bytes: await size(DETECT), task: 'detect', uses: 3 });
    expect(s.totalBytes).toBe(await size(DETECT));
  });

  it('shares one load between concurrent cold requests', async () => {
    const engine = newEngine();
    const img = await image();
    const results = await Promise.all([engine.predict(SEG, img), engine.predict(SEG, img), engine.predict(SEG, img)]);
    expect(new Set(results.map((r) => JSON.stringify(r.results))).size).toBe(1);
    expect(engine.stats()).toMatchObject({ misses: 1, hits: 2 });
  });

  it('evicts the least recently used models once the byte budget is exceeded', async () => {
    const [d, s, c] = await Promise.all([size(DETECT), size(SEG), size(CLS)]);
    // Room for detect + seg, not for all three.
    const engine = newEngine({ maxCacheBytes: d + s + 1 });
    await engine.load(DETECT);
    await engine.load(SEG);
    expect(engine.stats().evictions).toBe(0);
    await engine.load(CLS); // detect is the least recently used
    expect(engine.stats().models.map((m) => m.task)).toEqual(['classify', 'segment']);
    expect(engine.stats().totalBytes).toBe(s + c);
    await engine.load(SEG); // touch seg, so classify becomes the oldest
    await engine.load(DETECT);
    const st = engine.stats();
    expect(st.models.map((m) => m.task)).toEqual(['detect', 'segment']);
    expect(st.evictions).toBe(2);
    expect(st.totalBytes).toBe(d + s);
    expect(st.totalBytes).toBeLessThanOrEqual(st.maxBytes);
  });

  it('keeps a single model larger than the budget, alone', async () => {
    const engine = newEngine({ maxCacheBytes: 1024 });
    await engine.load(SEG);
    expect(engine.stats().models).toHaveLength(1);
    await engine.load(DETECT);
    expect(engine.stats().models.map((m) => m.task)).toEqual(['detect']);
    const p = await engine.predict(DETECT, await image());
    expect(p.results.length).toBeGreaterThan(0);
  });

  it('lets runs in flight finish when their session is evicted, then releases it', async () => {
    const engine = newEngine();
    await engine.load(SEG);
    const tensor = new Float32Array(3 * 160 * 160).fill(0.5);
    const runs = Array.from({ length: 4 }, () => engine.bareRun(SEG, tensor));
    const deadline = Date.now() + 5000;
    while (engine.stats().models[0].inFlight === 0 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    const inFlight = engine.stats().models[0].inFlight;
    expect(inFlight).toBeGreaterThan(0);
    expect(await engine.evict()).toBe(1);
    expect(engine.stats().models).toHaveLength(0);
    const outs = await Promise.all(runs);
    for (const o of outs) expect(o.output0.data).toEqual(outs[0].output0.data);
    // And the engine reloads on the next call.
    expect((await engine.predict(SEG, await image())).results.length).toBe(2);
    expect(engine.stats()).toMatchObject({ misses: 2 });
  });

  it('reloads a model whose file was replaced', async () => {
    const engine = newEngine();
    const file = path.join(tmp, 'model.onnx');
    await copyFile(DETECT, file);
    expect((await engine.predict(file, await image())).task).toBe('detect');
    await copyFile(CLS, file);
    // Make sure the stamp changes even on coarse-mtime filesystems.
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    expect((await engine.predict(file, await image())).task).toBe('classify');
    const s = engine.stats();
    expect(s.misses).toBe(2);
    expect(s.models).toHaveLength(1);
    expect(s.totalBytes).toBe(await size(CLS));
  });

  it('loads models from memory, keyed by id', async () => {
    const engine = newEngine();
    const ref = { id: 'model-123', bytes: await readFile(SEG) };
    const a = await engine.predict(ref, await image());
    const b = await engine.predict({ id: 'model-123', bytes: new Uint8Array(0) }, await image()); // cached: bytes unused
    expect(a.results).toEqual(b.results);
    expect(engine.stats().models[0]).toMatchObject({ key: 'id:model-123', task: 'segment', uses: 2 });
  });

  it('describes a model', async () => {
    const engine = newEngine();
    const d = await engine.load(SEG);
    expect(d.input).toEqual({ name: 'images', shape: [1, 3, 160, 160], dynamic: false });
    expect(d.outputs).toEqual([
      { name: 'output0', shape: [1, 39, 525] },
      { name: 'output1', shape: [1, 32, 40, 40] },
    ]);
    expect(d.metadata).toMatchObject({ task: 'segment', imgsz: [160, 160], stride: 32, names: ['red_square', 'green_circle', 'blue_triangle'] });
  });

  it('letterboxes to the fixed input size whatever imgsz is asked for', async () => {
    const engine = newEngine();
    const base = await engine.predict(DETECT, await image());
    const at640 = await engine.predict(DETECT, await image(), { imgsz: 640 });
    expect(at640.inputSize).toEqual({ width: 160, height: 160 });
    expect(at640.results).toEqual(base.results);
  });
});

describe('InferenceEngine input buffers', () => {
  it('reused input tensors never leak one request into another: interleaved images, sizes and concurrency give the lone results', async () => {
    const other = await readFile(path.join(fixture('test-images'), 'test_0007.png'));
    const lone = newEngine();
    const expected = {
      a: (await lone.predict(SEG, await image())).results,
      b: (await lone.predict(SEG, other)).results,
      cls: (await lone.predict(CLS, other)).results,
    };
    expect(expected.a.length).toBeGreaterThan(0);
    expect(expected.a).not.toEqual(expected.b);
    const engine = newEngine();
    const runs = await Promise.all([
      engine.predict(SEG, await image()),
      engine.predict(SEG, other),
      engine.predict(SEG, await image()),
      engine.predict(CLS, other),
      engine.predict(SEG, other),
    ]);
    expect(runs.map((r) => r.results)).toEqual([expected.a, expected.b, expected.a, expected.cls, expected.b]);
    expect((await engine.predict(SEG, await image())).results).toEqual(expected.a);
  });
});

describe('InferenceEngine errors', () => {
  it('reports a missing model file', async () => {
    const err = await newEngine()
      .predict(path.join(tmp, 'nope.onnx'), await image())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as InferenceError).code).toBe('invalid_model');
  });

  it('reports a file that is not an ONNX model', async () => {
    const file = path.join(tmp, 'fake.onnx');
    await writeFile(file, 'this is not protobuf');
    await expect(newEngine().load(file)).rejects.toMatchObject({ code: 'invalid_model' });
  });

  it('reports an undecodable image without poisoning the session', async () => {
    const engine = newEngine();
    await expect(engine.predict(DETECT, Buffer.from('not an image'))).rejects.toMatchObject({ code: 'invalid_image' });
    expect((await engine.predict(DETECT, await image())).results.length).toBe(2);
  });

  it('validates options', async () => {
    const engine = newEngine();
    await expect(engine.predict(DETECT, await image(), { conf: 2 })).rejects.toThrow(RangeError);
    await expect(engine.predict(DETECT, await image(), { maxDet: 0 })).rejects.toThrow(RangeError);
    expect(() => new InferenceEngine({ maxCacheBytes: 0 })).toThrow(RangeError);
  });

  it('reports a tensor of the wrong size from bareRun as an inference failure', async () => {
    const engine = newEngine();
    await expect(engine.bareRun(DETECT, new Float32Array(10), [1, 3, 160, 160])).rejects.toMatchObject({ code: 'inference_failed' });
    const out = await engine.bareRun(DETECT, new Float32Array(3 * 160 * 160));
    expect(out.output0.dims).toEqual([1, 7, 525]);
  });
});

describe('sessionOptions (ADR 0041)', () => {
  const intraOp = (o: ReturnType<typeof sessionOptions>) => (o.extra as { session: { intra_op: Record<string, string> } }).session.intra_op;

  it('spins briefly by default, never with 0, unbounded with Infinity, and refuses a negative time', () => {
    expect(intraOp(sessionOptions())).toEqual({ allow_spinning: '1', spin_duration_us: String(DEFAULT_SPIN_MICROS) });
    expect(intraOp(sessionOptions({ spinMicros: 0 }))).toEqual({ allow_spinning: '0' });
    expect(intraOp(sessionOptions({ spinMicros: Infinity }))).toEqual({ allow_spinning: '1' });
    expect(() => sessionOptions({ spinMicros: -1 })).toThrow(RangeError);
  });

  it('gives onnxruntime options it accepts, and the same results with and without spinning', async () => {
    const img = await image();
    const results = [];
    for (const spinMicros of [DEFAULT_SPIN_MICROS, 0, Infinity])
      results.push((await newEngine({ spinMicros, intraOpNumThreads: 2 }).predict(DETECT, img)).results);
    expect(results[0].length).toBeGreaterThan(0);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});
