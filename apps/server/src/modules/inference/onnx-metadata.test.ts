import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InferenceError } from './errors.js';
import { parseUltralyticsMetadata, readOnnxMetadata, readVarint } from './onnx-metadata.js';
import { fixture, lenField, readGolden, varint, varintField, type GoldenBoxes } from './test-fixtures.js';

const enc = new TextEncoder();
function entry(key: string, value: string): number[] {
  return lenField(14, [...lenField(1, enc.encode(key)), ...lenField(2, enc.encode(value))]);
}

const models = [
  ['shapes3-detect.onnx', 'golden-detect.json'],
  ['shapes3-seg.onnx', 'golden-segment.json'],
  ['shapes3-cls.onnx', 'golden-classify.json'],
] as const;

describe('readOnnxMetadata', () => {
  const tmp = mkdtemp(path.join(os.tmpdir(), 'onnx-meta-'));
  afterAll(async () => rm(await tmp, { recursive: true, force: true }));

  it.each(models)('reads %s metadata_props exactly as the golden file recorded them', async (model, golden) => {
    const g = readGolden<GoldenBoxes>(golden);
    const fromPath = await readOnnxMetadata(fixture(model));
    expect(fromPath.metadataProps).toEqual(g.onnx_metadata_props);
    expect(Object.keys(fromPath.metadataProps)).toEqual(Object.keys(g.onnx_metadata_props));
    expect(fromPath.producerName).toBe('pytorch');
    expect(fromPath.producerVersion).toBe('1.13.0');
    expect(fromPath.opsetImport).toEqual([{ domain: '', version: 17 }]);
    expect(fromPath.irVersion).toBeGreaterThanOrEqual(7);
    const fromBytes = await readOnnxMetadata(await readFile(fixture(model)));
    expect(fromBytes).toEqual(fromPath);
  });

  it.each(models)('turns %s metadata into typed ultralytics fields', async (model, golden) => {
    const g = readGolden<GoldenBoxes>(golden);
    const meta = parseUltralyticsMetadata((await readOnnxMetadata(fixture(model))).metadataProps);
    expect(meta.task).toBe(g.task);
    expect(meta.names).toEqual(Object.keys(g.names).map((k) => g.names[k]));
    expect(meta.imgsz).toEqual(model.includes('cls') ? [64, 64] : [160, 160]);
    expect(meta.stride).toBe(model.includes('cls') ? 1 : 32);
    expect(meta.batch).toBe(1);
    expect(meta.channels).toBe(3);
    expect(meta.version).toBe('8.3.166');
    expect(meta.args).toEqual({ batch: 1, half: false, dynamic: false, simplify: false, opset: 17, nms: false });
  });

  it('reads fields in any order, skips unknown ones, and lets later duplicate keys win', async () => {
    const bytes = Uint8Array.from([
      ...entry('task', 'detect'),
      ...varintField(1, 9),
      ...[0x99, 0x01, 0x01, 0, 0, 0, 0, 0, 0, 0], // field 19, fixed64
      ...lenField(7, [1, 2, 3, 4, 5]), // graph, opaque here
      ...lenField(8, [...lenField(1, enc.encode('ai.onnx.ml')), ...varintField(2, 3)]),
      ...entry('names', "{0: 'a'}"),
      ...entry('task', 'segment'),
      ...lenField(2, enc.encode('me')),
      ...varintField(5, 300),
    ]);
    const info = await readOnnxMetadata(bytes);
    expect(info).toEqual({
      irVersion: 9,
      producerName: 'me',
      modelVersion: 300,
      opsetImport: [{ domain: 'ai.onnx.ml', version: 3 }],
      metadataProps: { task: 'segment', names: "{0: 'a'}" },
    });
    const file = path.join(await tmp, 'synthetic.onnx');
    await writeFile(file, bytes);
    expect(await readOnnxMetadata(file)).toEqual(info);
  });

  it.each([
    ['JSON', enc.encode('{"not": "onnx"}')],
    ['a truncated model', Uint8Array.from([...lenField(7, [1, 2, 3, 4, 5])].slice(0, 4))],
    ['a model without a graph', Uint8Array.from(entry('task', 'detect'))],
    ['empty bytes', new Uint8Array(0)],
    ['random bytes', Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) % 256)],
  ])('rejects %s as invalid_model', async (_label, bytes) => {
    const err = await readOnnxMetadata(bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as InferenceError).code).toBe('invalid_model');
  });

  it('rejects a truncated copy of a real model', async () => {
    const bytes = await readFile(fixture('shapes3-cls.onnx'));
    await expect(readOnnxMetadata(bytes.subarray(0, bytes.length - 10))).rejects.toThrow(InferenceError);
  });

  it('reads varints up to 2^53', () => {
    expect(readVarint(Uint8Array.from([0xac, 0x02]), 0)).toEqual({ value: 300, next: 2 });
    expect(readVarint(Uint8Array.from(varint(2 ** 40 + 5)), 0).value).toBe(2 ** 40 + 5);
    expect(() => readVarint(Uint8Array.from([0x80, 0x80]), 0)).toThrow(/Truncated/);
  });
});

describe('parseUltralyticsMetadata', () => {
  const base = { task: 'detect', names: "{0: 'a', 1: 'b'}", imgsz: '[640, 480]', stride: '32' };

  it('accepts names as a dict with gaps or as a list, and a scalar imgsz', () => {
    expect(parseUltralyticsMetadata({ ...base, names: "{0: 'a', 2: 'c'}" }).names).toEqual(['a', 'class1', 'c']);
    expect(parseUltralyticsMetadata({ ...base, names: "['x', 'y']" }).names).toEqual(['x', 'y']);
    expect(parseUltralyticsMetadata({ ...base, imgsz: '320' }).imgsz).toEqual([320, 320]);
    expect(parseUltralyticsMetadata(base).imgsz).toEqual([640, 480]);
    expect(parseUltralyticsMetadata({ ...base, task: 'pose', kpt_shape: '[17, 3]' }).kptShape).toEqual([17, 3]);
  });

  it.each([
    [{ ...base, task: 'track' }, /task/],
    [{ names: base.names }, /task/],
    [{ ...base, names: '' }, /names/],
    [{ ...base, names: "{'a': 'b'}" }, /integer class ids/],
    [{ task: 'detect' }, /no "names"/],
  ])('rejects malformed metadata %#', (props, message) => {
    expect(() => parseUltralyticsMetadata(props as Record<string, string>)).toThrow(message);
  });
});
