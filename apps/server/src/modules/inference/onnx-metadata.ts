import { open } from 'node:fs/promises';
import { parsePythonLiteral, pyToJson, type PyValue } from './python-literal.js';
import { InferenceError } from './errors.js';

/**
 * onnxruntime-node (1.30) exposes input/output shapes but not the model's `metadata_props`, which is where ultralytics
 * stores task, class names and image size. So the few top-level fields we need are read straight from the ONNX
 * protobuf. The graph (field 7) holds the weights and is skipped without being read, so a path source costs a handful
 * of small positional reads whatever the model size.
 */

export interface OnnxModelInfo {
  irVersion?: number;
  producerName?: string;
  producerVersion?: string;
  domain?: string;
  modelVersion?: number;
  docString?: string;
  opsetImport: Array<{ domain: string; version: number }>;
  /** `metadata_props` as written, in file order (later duplicates win). */
  metadataProps: Record<string, string>;
}

// ModelProto field numbers (onnx/onnx.proto).
const F_IR_VERSION = 1;
const F_PRODUCER_NAME = 2;
const F_PRODUCER_VERSION = 3;
const F_DOMAIN = 4;
const F_MODEL_VERSION = 5;
const F_DOC_STRING = 6;
const F_OPSET_IMPORT = 8;
const F_METADATA_PROPS = 14;

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Small top-level string/message fields are read whole; anything larger than this is not metadata and is skipped. */
const MAX_SMALL_FIELD = 16 * 1024 * 1024;

interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

function bufferSource(buf: Uint8Array): ByteSource {
  return { size: buf.byteLength, read: async (offset, length) => buf.subarray(offset, Math.min(offset + length, buf.byteLength)) };
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Reads a varint from `buf` at `pos`; returns the value (safe up to 2^53) and the next position. */
export function readVarint(buf: Uint8Array, pos: number): { value: number; next: number } {
  let value = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= buf.length) throw new InferenceError('invalid_model', 'Truncated protobuf varint');
    const b = buf[pos + i];
    value += (b & 0x7f) * mul;
    mul *= 128;
    if ((b & 0x80) === 0) return { value, next: pos + i + 1 };
  }
  throw new InferenceError('invalid_model', 'Malformed protobuf varint');
}

/** Iterates the fields of one protobuf message held in memory. */
function* fields(buf: Uint8Array): Generator<{ field: number; wire: number; value: number; bytes?: Uint8Array }> {
  let pos = 0;
  while (pos < buf.length) {
    const tag = readVarint(buf, pos);
    pos = tag.next;
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    if (wire === WIRE_VARINT) {
      const v = readVarint(buf, pos);
      pos = v.next;
      yield { field, wire, value: v.value };
    } else if (wire === WIRE_LEN) {
      const len = readVarint(buf, pos);
      const end = len.next + len.value;
      if (end > buf.length) throw new InferenceError('invalid_model', 'Truncated protobuf field');
      yield { field, wire, value: len.value, bytes: buf.subarray(len.next, end) };
      pos = end;
    } else if (wire === WIRE_I64) {
      pos += 8;
    } else if (wire === WIRE_I32) {
      pos += 4;
    } else {
      throw new InferenceError('invalid_model', `Unsupported protobuf wire type ${wire}`);
    }
  }
}

/**
 * Reads ONNX model-level info and `metadata_props` from a model file path or its bytes.
 * Throws `InferenceError('invalid_model')` when the bytes are not a protobuf ModelProto.
 */
export async function readOnnxMetadata(source: string | Uint8Array): Promise<OnnxModelInfo> {
  if (typeof source !== 'string') return parseModelProto(bufferSource(source));
  const handle = await open(source, 'r');
  try {
    const { size } = await handle.stat();
    return await parseModelProto({
      size,
      read: async (offset, length) => {
        const want = Math.max(0, Math.min(length, size - offset));
        const buf = new Uint8Array(want);
        let got = 0;
        while (got < want) {
          const { bytesRead } = await handle.read(buf, got, want - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return buf.subarray(0, got);
      },
    });
  } finally {
    await handle.close();
  }
}

async function parseModelProto(src: ByteSource): Promise<OnnxModelInfo> {
  const info: OnnxModelInfo = { opsetImport: [], metadataProps: {} };
  let pos = 0;
  let sawGraph = false;
  while (pos < src.size) {
    // A tag plus a length prefix never exceeds 20 bytes.
    const head = await src.read(pos, 20);
    const tag = readVarint(head, 0);
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    if (field === 0) throw new InferenceError('invalid_model', 'Not an ONNX model (field number 0)');
    if (wire === WIRE_VARINT) {
      const v = readVarint(head, tag.next);
      if (field === F_IR_VERSION) info.irVersion = v.value;
      if (field === F_MODEL_VERSION) info.modelVersion = v.value;
      pos += v.next;
    } else if (wire === WIRE_LEN) {
      const len = readVarint(head, tag.next);
      const start = pos + len.next;
      const end = start + len.value;
      if (end > src.size) throw new InferenceError('invalid_model', 'Not an ONNX model (truncated field)');
      if (field === 7) sawGraph = true;
      const wanted = [F_PRODUCER_NAME, F_PRODUCER_VERSION, F_DOMAIN, F_DOC_STRING, F_OPSET_IMPORT, F_METADATA_PROPS].includes(field);
      if (wanted && len.value <= MAX_SMALL_FIELD) {
        const bytes = await src.read(start, len.value);
        applyLenField(info, field, bytes);
      }
      pos = end;
    } else if (wire === WIRE_I64) {
      pos += tag.next + 8;
    } else if (wire === WIRE_I32) {
      pos += tag.next + 4;
    } else {
      throw new InferenceError('invalid_model', `Not an ONNX model (wire type ${wire})`);
    }
  }
  if (pos !== src.size) throw new InferenceError('invalid_model', 'Not an ONNX model (trailing bytes)');
  if (!sawGraph) throw new InferenceError('invalid_model', 'Not an ONNX model (no graph)');
  return info;
}

function applyLenField(info: OnnxModelInfo, field: number, bytes: Uint8Array): void {
  switch (field) {
    case F_PRODUCER_NAME:
      info.producerName = utf8.decode(bytes);
      break;
    case F_PRODUCER_VERSION:
      info.producerVersion = utf8.decode(bytes);
      break;
    case F_DOMAIN:
      info.domain = utf8.decode(bytes);
      break;
    case F_DOC_STRING:
      info.docString = utf8.decode(bytes);
      break;
    case F_OPSET_IMPORT: {
      // OperatorSetIdProto: domain = 1, version = 2.
      let domain = '';
      let version = 0;
      for (const f of fields(bytes)) {
        if (f.field === 1 && f.bytes) domain = utf8.decode(f.bytes);
        if (f.field === 2 && f.wire === WIRE_VARINT) version = f.value;
      }
      info.opsetImport.push({ domain, version });
      break;
    }
    case F_METADATA_PROPS: {
      // StringStringEntryProto: key = 1, value = 2.
      let key = '';
      let value = '';
      for (const f of fields(bytes)) {
        if (f.field === 1 && f.bytes) key = utf8.decode(f.bytes);
        if (f.field === 2 && f.bytes) value = utf8.decode(f.bytes);
      }
      info.metadataProps[key] = value;
      break;
    }
  }
}

export type YoloTask = 'detect' | 'segment' | 'classify' | 'pose' | 'obb';
const TASKS: readonly YoloTask[] = ['detect', 'segment', 'classify', 'pose', 'obb'];

/** The ultralytics fields of `metadata_props`, typed. */
export interface UltralyticsMetadata {
  task: YoloTask;
  /** Class names indexed by class id; ids missing from the metadata are filled with `class{id}`. */
  names: string[];
  /** Training/export image size as [height, width]. */
  imgsz: [number, number];
  stride: number;
  batch?: number;
  channels?: number;
  /** Pose models: [keypoints, dims] (dims is 2 for x,y or 3 for x,y,visibility). */
  kptShape?: [number, number];
  version?: string;
  description?: string;
  author?: string;
  date?: string;
  license?: string;
  /** Export arguments, converted to plain JSON. */
  args?: Record<string, unknown>;
}

function literal(props: Record<string, string>, key: string): PyValue | undefined {
  const raw = props[key];
  if (raw === undefined) return undefined;
  try {
    return parsePythonLiteral(raw);
  } catch (err) {
    throw new InferenceError('invalid_model', `Model metadata "${key}" is not a valid Python literal: ${(err as Error).message}`);
  }
}

function int(v: PyValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/**
 * Interprets ultralytics `metadata_props`. Throws `InferenceError('invalid_model')` when the task or the class names
 * are missing or malformed, because predictions cannot be labelled without them.
 */
export function parseUltralyticsMetadata(props: Record<string, string>): UltralyticsMetadata {
  const task = props.task?.trim();
  if (!task || !(TASKS as readonly string[]).includes(task)) {
    throw new InferenceError('invalid_model', `Model metadata has no supported "task" (got ${JSON.stringify(props.task ?? null)})`);
  }
  const namesValue = literal(props, 'names');
  let names: string[];
  if (namesValue instanceof Map) {
    const ids = [...namesValue.keys()];
    if (!ids.every((k) => typeof k === 'number' && Number.isInteger(k) && k >= 0)) {
      throw new InferenceError('invalid_model', 'Model metadata "names" must map integer class ids to names');
    }
    const count = Math.max(...(ids as number[])) + 1;
    names = Array.from({ length: count }, (_, i) => {
      const n = namesValue.get(i);
      return n === undefined ? `class${i}` : String(n);
    });
  } else if (Array.isArray(namesValue)) {
    names = namesValue.map(String);
  } else {
    throw new InferenceError('invalid_model', 'Model metadata has no "names"');
  }
  const imgszValue = literal(props, 'imgsz');
  let imgsz: [number, number] = [640, 640];
  if (Array.isArray(imgszValue) && imgszValue.length === 2 && imgszValue.every((v) => int(v) !== undefined)) {
    imgsz = [imgszValue[0] as number, imgszValue[1] as number];
  } else if (int(imgszValue as PyValue) !== undefined) {
    imgsz = [imgszValue as number, imgszValue as number];
  }
  const kpt = literal(props, 'kpt_shape');
  const args = literal(props, 'args');
  const strideValue = literal(props, 'stride');
  const stride = Array.isArray(strideValue) ? Math.max(...strideValue.map((v) => int(v) ?? 0)) : (int(strideValue) ?? 32);
  return {
    task: task as YoloTask,
    names,
    imgsz,
    stride: stride > 0 ? stride : 32,
    batch: int(literal(props, 'batch')),
    channels: int(literal(props, 'channels')),
    kptShape: Array.isArray(kpt) && kpt.length === 2 && kpt.every((v) => int(v) !== undefined) ? [kpt[0] as number, kpt[1] as number] : undefined,
    version: props.version,
    description: props.description,
    author: props.author,
    date: props.date,
    license: props.license,
    args: args instanceof Map ? (pyToJson(args) as Record<string, unknown>) : undefined,
  };
}
