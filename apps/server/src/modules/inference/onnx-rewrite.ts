import { open, type FileHandle } from 'node:fs/promises';
import { readVarint } from './onnx-metadata.js';

/**
 * A load-time rewrite of the YOLO detection head's DFL (distribution focal loss) decode, so that onnxruntime runs it
 * without the transposes it otherwise wraps around the softmax (ADR 0041, the amendment at its end).
 *
 * ultralytics' DFL is `conv(x.view(b, 4, c, a).transpose(2, 1).softmax(1))` with a 1×1 Conv(c → 1, no bias) whose
 * weight is `arange(c)`; exported to ONNX it reads
 *
 *     Reshape → Transpose(perm [0,2,1,3]) → Softmax(axis 1) → Conv(W [1,c,1,1]) → [b,1,4,a]
 *
 * and onnxruntime's Softmax over a non-last axis transposes its input to the last axis and back (4 ms of a 32 ms
 * YOLOv8n run at 480×640). The same values come out of
 *
 *     Transpose(perm [0,1,3,2]) → Softmax(axis 3) → MatMul(W as [c,1]) → Transpose(perm [0,3,1,2]) → [b,1,4,a]
 *
 * whose Softmax runs over contiguous rows. The last Transpose only moves a dimension of size 1, and it writes the
 * Conv's output name, so everything downstream is untouched.
 *
 * The rewrite works on the protobuf bytes and is size-safe: the graph's fields are walked by their headers with
 * positional reads (a path source is read through a small window, never whole unless it is rewritten), the weights
 * are skipped, and the output is the input's byte ranges copied unchanged around a few small edits: the three nodes
 * become four, the 1×1 weight (64 bytes) gets the dims [c,1], the `value_info` of the two intermediate tensors (whose
 * shapes change) is dropped, and the graph's length prefix is rewritten. It matches exactly the exported pattern and
 * nothing else (see `matches`); any other model, or any doubt while reading, gives `undefined`, which means "load the
 * original bytes".
 */

interface Source {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Copies `length` bytes at `offset` into `out` at `at`. */
  copyTo(out: Uint8Array, at: number, offset: number, length: number): Promise<void>;
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Names, op types and small attributes are read whole; a string field larger than this is not a name: no rewrite. */
const MAX_STRING = 64 * 1024;
/** Nodes are read whole; one larger than this (a huge Constant) means no rewrite. */
const MAX_NODE = 64 * 1024 * 1024;
/** The 1×1 weight is re-encoded whole; larger tensors are never it. */
const MAX_WEIGHT_TENSOR = 64 * 1024;
/** Bytes a path source reads at a time while walking the graph. */
const WINDOW = 256 * 1024;

class NoRewrite extends Error {}

const doubt = (why: string): never => {
  throw new NoRewrite(why);
};

function bufferSource(buf: Uint8Array): Source {
  return {
    size: buf.byteLength,
    read: async (offset, length) => buf.subarray(offset, Math.min(offset + length, buf.byteLength)),
    copyTo: async (out, at, offset, length) => out.set(buf.subarray(offset, offset + length), at),
  };
}

async function readFully(handle: FileHandle, into: Uint8Array, offset: number): Promise<void> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await handle.read(into, got, into.length - got, offset + got);
    if (bytesRead === 0) doubt('file shorter than its size');
    got += bytesRead;
  }
}

function fileSource(handle: FileHandle, size: number): Source {
  let winStart = 0;
  let win = new Uint8Array(0);
  return {
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      if (offset >= winStart && offset + want <= winStart + win.length) return win.subarray(offset - winStart, offset - winStart + want);
      win = new Uint8Array(Math.min(Math.max(want, WINDOW), size - offset));
      winStart = offset;
      await readFully(handle, win, offset);
      return win.subarray(0, want);
    },
    copyTo: (out, at, offset, length) => readFully(handle, out.subarray(at, at + length), offset),
  };
}

interface Field {
  field: number;
  wire: number;
  /** Offset of the tag. */
  start: number;
  /** Offset of the payload (LEN fields) or of the value. */
  dataStart: number;
  /** Offset just past the field. */
  end: number;
  /** Varint value, or the payload length of a LEN field. */
  value: number;
}

/** The field whose tag is at `head[0]`; `pos` is where `head` starts in the model. */
function fieldAt(head: Uint8Array, pos: number, end: number): Field {
  const tag = readVarint(head, 0);
  const field = Math.floor(tag.value / 8);
  const wire = tag.value % 8;
  if (field === 0) doubt('field number 0');
  let f: Field;
  if (wire === WIRE_VARINT) {
    const v = readVarint(head, tag.next);
    f = { field, wire, start: pos, dataStart: pos + tag.next, end: pos + v.next, value: v.value };
  } else if (wire === WIRE_LEN) {
    const len = readVarint(head, tag.next);
    f = { field, wire, start: pos, dataStart: pos + len.next, end: pos + len.next + len.value, value: len.value };
  } else if (wire === WIRE_I64) {
    f = { field, wire, start: pos, dataStart: pos + tag.next, end: pos + tag.next + 8, value: 0 };
  } else if (wire === WIRE_I32) {
    f = { field, wire, start: pos, dataStart: pos + tag.next, end: pos + tag.next + 4, value: 0 };
  } else {
    return doubt(`wire type ${wire}`);
  }
  if (f.end > end) doubt('truncated field');
  return f;
}

/** The fields of the message at [start, end) of `src`, by their headers (the payloads are not read). */
async function* walk(src: Source, start: number, end: number): AsyncGenerator<Field> {
  for (let pos = start; pos < end;) {
    const f = fieldAt(await src.read(pos, Math.min(20, end - pos)), pos, end);
    yield f;
    pos = f.end;
  }
}

/** A small message read whole: its bytes and where they start in the model. */
interface Message {
  bytes: Uint8Array;
  base: number;
}

async function readMessage(src: Source, at: Field, max: number): Promise<Message> {
  if (at.wire !== WIRE_LEN || at.value > max) doubt('message too large');
  return { bytes: await src.read(at.dataStart, at.value), base: at.dataStart };
}

/** The fields of a message held in memory, with offsets in the model (as `walk` gives them). */
function* fields(m: Message, at?: Field): Generator<Field> {
  const start = at ? at.dataStart : m.base;
  const end = at ? at.end : m.base + m.bytes.length;
  for (let pos = start; pos < end;) {
    const f = fieldAt(m.bytes.subarray(pos - m.base), pos, end);
    yield f;
    pos = f.end;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const payload = (m: Message, f: Field) => m.bytes.subarray(f.dataStart - m.base, f.end - m.base);

function str(m: Message, f: Field): string {
  if (f.wire !== WIRE_LEN || f.value > MAX_STRING) doubt('not a name');
  return utf8.decode(payload(m, f));
}

/** A repeated int64 field entry, packed or not, appended to `into`. */
function ints64(m: Message, f: Field, into: number[]): void {
  if (f.wire === WIRE_VARINT) {
    into.push(f.value);
  } else if (f.wire === WIRE_LEN) {
    const bytes = payload(m, f);
    for (let p = 0; p < bytes.length;) {
      const v = readVarint(bytes, p);
      into.push(v.value);
      p = v.next;
    }
  } else {
    doubt('malformed repeated int');
  }
}

interface Attribute {
  name: string;
  type?: number;
  i?: number;
  s?: string;
  ints: number[];
  /** Any field besides name, type, i, s and ints (floats, tensors, graphs, ...). */
  other: boolean;
  /** A subgraph (g, graphs): its nodes may use this graph's names, so the use counts would not be complete. */
  graph: boolean;
}

interface NodeInfo {
  field: Field;
  inputs: string[];
  outputs: string[];
  name: string;
  opType: string;
  domain: string;
  attributes: Attribute[];
}

// NodeProto, AttributeProto, TensorProto, ValueInfoProto, GraphProto and ModelProto field numbers (onnx/onnx.proto).
const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 } as const;
const ATTR = { name: 1, i: 3, s: 4, g: 6, ints: 8, graphs: 11, type: 20 } as const;
const ATTR_TYPE = { INT: 2, STRING: 3, INTS: 7 } as const;
const TENSOR = { dims: 1, dataType: 2, floatData: 4, name: 8, rawData: 9, externalData: 13, dataLocation: 14 } as const;
const GRAPH = { node: 1, initializer: 5, input: 11, output: 12, valueInfo: 13, sparseInitializer: 15 } as const;
const MODEL = { graph: 7, opsetImport: 8, trainingInfo: 20 } as const;
const FLOAT = 1;

function readAttribute(m: Message, at: Field): Attribute {
  const a: Attribute = { name: '', ints: [], other: false, graph: false };
  for (const f of fields(m, at)) {
    if (f.field === ATTR.name) a.name = str(m, f);
    else if (f.field === ATTR.type && f.wire === WIRE_VARINT) a.type = f.value;
    else if (f.field === ATTR.i && f.wire === WIRE_VARINT) a.i = f.value;
    else if (f.field === ATTR.s && f.wire === WIRE_LEN && f.value <= MAX_STRING) a.s = utf8.decode(payload(m, f));
    else if (f.field === ATTR.ints) ints64(m, f, a.ints);
    else {
      a.other = true;
      if (f.field === ATTR.g || f.field === ATTR.graphs) a.graph = true;
    }
  }
  return a;
}

/** A node, read whole (nodes are small; a Constant's tensor is the largest they get). */
async function readNode(src: Source, at: Field): Promise<NodeInfo> {
  const m = await readMessage(src, at, MAX_NODE);
  const n: NodeInfo = { field: at, inputs: [], outputs: [], name: '', opType: '', domain: '', attributes: [] };
  for (const f of fields(m)) {
    if (f.field === NODE.input) n.inputs.push(str(m, f));
    else if (f.field === NODE.output) n.outputs.push(str(m, f));
    else if (f.field === NODE.name) n.name = str(m, f);
    else if (f.field === NODE.opType) n.opType = str(m, f);
    else if (f.field === NODE.domain) n.domain = str(m, f);
    else if (f.field === NODE.attribute) n.attributes.push(readAttribute(m, f));
  }
  return n;
}

interface TensorHead {
  field: Field;
  name: string;
}

/** An initializer's name, found by the headers of its fields (the data is skipped, not read). */
async function readTensorName(src: Source, at: Field): Promise<TensorHead> {
  for await (const f of walk(src, at.dataStart, at.end)) {
    if (f.field === TENSOR.name) return { field: at, name: str(await readMessage(src, f, MAX_STRING), f) };
  }
  return { field: at, name: '' };
}

/** A ValueInfoProto's name (field 1). */
async function readValueName(src: Source, at: Field): Promise<string> {
  const m = await readMessage(src, at, MAX_STRING);
  for (const f of fields(m)) if (f.field === 1) return str(m, f);
  return '';
}

interface Graph {
  field: Field;
  nodes: NodeInfo[];
  initializers: TensorHead[];
  inputs: string[];
  outputs: string[];
  valueInfo: Array<{ field: Field; name: string }>;
}

async function readGraph(src: Source, at: Field): Promise<Graph> {
  const g: Graph = { field: at, nodes: [], initializers: [], inputs: [], outputs: [], valueInfo: [] };
  for await (const f of walk(src, at.dataStart, at.end)) {
    if (f.wire !== WIRE_LEN) continue;
    if (f.field === GRAPH.node) g.nodes.push(await readNode(src, f));
    else if (f.field === GRAPH.initializer) g.initializers.push(await readTensorName(src, f));
    else if (f.field === GRAPH.input) g.inputs.push(await readValueName(src, f));
    else if (f.field === GRAPH.output) g.outputs.push(await readValueName(src, f));
    else if (f.field === GRAPH.valueInfo) g.valueInfo.push({ field: f, name: await readValueName(src, f) });
    else if (f.field === GRAPH.sparseInitializer) doubt('sparse initializers');
  }
  return g;
}

// --- the pattern ------------------------------------------------------------------------------------------------------

const isOnnxDomain = (n: NodeInfo) => n.domain === '' || n.domain === 'ai.onnx';
const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Only the listed attributes, each as `ok` says (absent ones take ONNX's default, which `ok` must accept too). */
function attributesAre(n: NodeInfo, ok: Record<string, (a: Attribute) => boolean>): boolean {
  const seen = new Set<string>();
  for (const a of n.attributes) {
    const check = ok[a.name];
    if (!check || a.other || seen.has(a.name) || !check(a)) return false;
    seen.add(a.name);
  }
  return true;
}

const ints = (want: number[]) => (a: Attribute) => (a.type === undefined || a.type === ATTR_TYPE.INTS) && same(a.ints, want);
const int = (want: number) => (a: Attribute) => (a.type === undefined || a.type === ATTR_TYPE.INT) && a.i === want && a.ints.length === 0;

interface Site {
  transpose: NodeInfo;
  softmax: NodeInfo;
  conv: NodeInfo;
  weight: TensorHead;
}

/** The DFL sites of `g`: Transpose [0,2,1,3] → (only) Softmax axis 1 → (only) Conv 1×1, 1 output, no bias. */
function matches(g: Graph): Array<Omit<Site, 'weight'> & { weightName: string }> {
  const uses = new Map<string, number>();
  const consumer = new Map<string, NodeInfo>();
  for (const n of g.nodes) {
    for (const i of n.inputs) {
      uses.set(i, (uses.get(i) ?? 0) + 1);
      consumer.set(i, n);
    }
  }
  for (const o of g.outputs) uses.set(o, (uses.get(o) ?? 0) + 1);
  const only = (name: string, op: string) => {
    const c = consumer.get(name);
    return uses.get(name) === 1 && c && c.opType === op && isOnnxDomain(c) ? c : undefined;
  };
  const found: Array<Omit<Site, 'weight'> & { weightName: string }> = [];
  for (const t of g.nodes) {
    if (t.opType !== 'Transpose' || !isOnnxDomain(t) || t.inputs.length !== 1 || t.outputs.length !== 1) continue;
    if (!t.attributes.some((a) => a.name === 'perm') || !attributesAre(t, { perm: ints([0, 2, 1, 3]) })) continue;
    const s = only(t.outputs[0], 'Softmax');
    if (!s || s.inputs.length !== 1 || s.outputs.length !== 1) continue;
    // axis must be given: its default is -1 from opset 13.
    if (!s.attributes.some((a) => a.name === 'axis') || !attributesAre(s, { axis: int(1) })) continue;
    const c = only(s.outputs[0], 'Conv');
    if (!c || c.inputs.length !== 2 || c.inputs[0] !== s.outputs[0] || c.outputs.length !== 1) continue;
    const convOk = attributesAre(c, {
      group: int(1),
      kernel_shape: ints([1, 1]),
      strides: ints([1, 1]),
      dilations: ints([1, 1]),
      pads: ints([0, 0, 0, 0]),
      auto_pad: (a) => (a.type === undefined || a.type === ATTR_TYPE.STRING) && a.s === 'NOTSET',
    });
    if (!convOk) continue;
    found.push({ transpose: t, softmax: s, conv: c, weightName: c.inputs[1] });
  }
  return found;
}

// --- protobuf writing -------------------------------------------------------------------------------------------------

/** A protobuf varint's bytes (also the tests' ModelProto writer, test-fixtures.ts). */
export function varint(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint ${n}`);
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

const tag = (field: number, wire: number) => varint(field * 8 + wire);
const lenField = (field: number, bytes: ArrayLike<number>): number[] => [...tag(field, WIRE_LEN), ...varint(bytes.length), ...Array.from(bytes)];
const utf8Out = new TextEncoder();
const strField = (field: number, s: string) => lenField(field, utf8Out.encode(s));

function intsAttribute(name: string, values: number[]): number[] {
  return [
    ...strField(ATTR.name, name),
    ...values.flatMap((v) => [...tag(ATTR.ints, WIRE_VARINT), ...varint(v)]),
    ...tag(ATTR.type, WIRE_VARINT),
    ...varint(ATTR_TYPE.INTS),
  ];
}

function intAttribute(name: string, value: number): number[] {
  return [...strField(ATTR.name, name), ...tag(ATTR.i, WIRE_VARINT), ...varint(value), ...tag(ATTR.type, WIRE_VARINT), ...varint(ATTR_TYPE.INT)];
}

function nodeField(inputs: string[], outputs: string[], name: string, opType: string, attributes: number[][]): number[] {
  const body = [
    ...inputs.flatMap((i) => strField(NODE.input, i)),
    ...outputs.flatMap((o) => strField(NODE.output, o)),
    ...strField(NODE.name, name),
    ...strField(NODE.opType, opType),
    ...attributes.flatMap((a) => lenField(NODE.attribute, a)),
  ];
  return lenField(GRAPH.node, body);
}

/**
 * The weight initializer with dims [c, 1] instead of [1, c, 1, 1]: its other fields (name, type, data) are kept as
 * they are. Returns the new field and c, or doubts when it is not a float [1, c, 1, 1] tensor held in the file.
 */
async function reshapedWeight(src: Source, w: TensorHead): Promise<{ bytes: number[]; channels: number }> {
  const m = await readMessage(src, w.field, MAX_WEIGHT_TENSOR);
  const dims: number[] = [];
  let dataType = 0;
  let floats = -1;
  const kept: number[] = [];
  for (const f of fields(m)) {
    if (f.field === TENSOR.dims) {
      ints64(m, f, dims);
      continue;
    }
    if (f.field === TENSOR.dataType && f.wire === WIRE_VARINT) dataType = f.value;
    else if (f.field === TENSOR.rawData && f.wire === WIRE_LEN) floats = Math.max(floats, 0) + f.value / 4;
    else if (f.field === TENSOR.floatData) floats = Math.max(floats, 0) + (f.wire === WIRE_LEN ? f.value / 4 : f.wire === WIRE_I32 ? 1 : NaN);
    else if (f.field === TENSOR.externalData || f.field === TENSOR.dataLocation) doubt('external data');
    else if (f.field !== TENSOR.name) doubt(`weight field ${f.field}`);
    for (let i = f.start; i < f.end; i++) kept.push(m.bytes[i - m.base]);
  }
  if (dataType !== FLOAT || dims.length !== 4 || dims[0] !== 1 || dims[2] !== 1 || dims[3] !== 1) doubt('not a float [1,c,1,1] weight');
  const channels = dims[1];
  if (!(channels >= 1) || floats !== channels) doubt('weight data does not fill its dims');
  const newBody = [...tag(TENSOR.dims, WIRE_VARINT), ...varint(channels), ...tag(TENSOR.dims, WIRE_VARINT), ...varint(1), ...kept];
  return { bytes: lenField(GRAPH.initializer, newBody), channels };
}

interface Edit {
  start: number;
  end: number;
  bytes: ArrayLike<number>;
}

/** What was rewritten, for the engine's description and for tests. */
export interface DflRewrite {
  bytes: Uint8Array;
  /** The Conv node names whose DFL was rewritten. */
  sites: string[];
}

async function plan(src: Source): Promise<{ edits: Edit[]; sites: string[] } | undefined> {
  let graphField: Field | undefined;
  let opset: number | undefined;
  for await (const f of walk(src, 0, src.size)) {
    if (f.field === MODEL.graph && f.wire === WIRE_LEN) {
      if (graphField) doubt('two graphs');
      graphField = f;
    } else if (f.field === MODEL.opsetImport && f.wire === WIRE_LEN) {
      let domain = '';
      let version = 0;
      const m = await readMessage(src, f, MAX_STRING);
      for (const o of fields(m)) {
        if (o.field === 1) domain = str(m, o);
        if (o.field === 2 && o.wire === WIRE_VARINT) version = o.value;
      }
      if (domain === '' || domain === 'ai.onnx') opset = version;
    } else if (f.field === MODEL.trainingInfo) {
      doubt("training info (its graphs use the main graph's names)");
    }
  }
  // Softmax's axis means "the flattened trailing axes" before opset 13, not one axis.
  if (!graphField || opset === undefined || opset < 13) return undefined;
  const g = await readGraph(src, graphField);
  if (g.nodes.some((n) => n.attributes.some((a) => a.graph))) return undefined;
  const found = matches(g);
  if (found.length === 0) return undefined;

  const names = new Set<string>([...g.inputs, ...g.outputs, ...g.initializers.map((i) => i.name), ...g.valueInfo.map((v) => v.name)]);
  for (const n of g.nodes) for (const x of [...n.inputs, ...n.outputs]) names.add(x);
  const nodeNames = new Set(g.nodes.map((n) => n.name));
  const fresh = (set: Set<string>, base: string) => {
    if (set.has(base)) doubt(`name ${base} taken`);
    set.add(base);
    return base;
  };
  const graphInputs = new Set(g.inputs);
  const edits: Edit[] = [];
  const sites: string[] = [];
  for (const { transpose: t, softmax: s, conv: c, weightName } of found) {
    const weights = g.initializers.filter((i) => i.name === weightName);
    const usesOfWeight = g.nodes.reduce((k, n) => k + n.inputs.filter((i) => i === weightName).length, 0);
    if (weights.length !== 1 || graphInputs.has(weightName) || usesOfWeight !== 1 || g.outputs.includes(weightName)) continue;
    const w = await reshapedWeight(src, weights[0]);
    const matmulOut = fresh(names, `${c.outputs[0]}/dfl_matmul`);
    const nodes = [
      ...nodeField(t.inputs, t.outputs, t.name, 'Transpose', [intsAttribute('perm', [0, 1, 3, 2])]),
      ...nodeField(s.inputs, s.outputs, s.name, 'Softmax', [intAttribute('axis', 3)]),
      ...nodeField([s.outputs[0], weightName], [matmulOut], fresh(nodeNames, `${c.name}/dfl_matmul`), 'MatMul', []),
      ...nodeField([matmulOut], c.outputs, fresh(nodeNames, `${c.name}/dfl_transpose`), 'Transpose', [intsAttribute('perm', [0, 3, 1, 2])]),
    ];
    // The new nodes sit where the Transpose was: their inputs are defined there, so the order stays topological.
    edits.push({ start: t.field.start, end: t.field.end, bytes: nodes });
    edits.push({ start: s.field.start, end: s.field.end, bytes: [] });
    edits.push({ start: c.field.start, end: c.field.end, bytes: [] });
    edits.push({ start: weights[0].field.start, end: weights[0].field.end, bytes: w.bytes });
    // The two intermediate tensors keep their names but not their shapes.
    for (const v of g.valueInfo) if (v.name === t.outputs[0] || v.name === s.outputs[0]) edits.push({ start: v.field.start, end: v.field.end, bytes: [] });
    sites.push(c.name);
  }
  if (edits.length === 0) return undefined;
  edits.sort((a, b) => a.start - b.start);
  for (let i = 1; i < edits.length; i++) if (edits[i].start < edits[i - 1].end) doubt('overlapping edits');
  const delta = edits.reduce((d, e) => d + e.bytes.length - (e.end - e.start), 0);
  // The graph's new length prefix.
  edits.unshift({ start: graphField.start, end: graphField.dataStart, bytes: [...tag(MODEL.graph, WIRE_LEN), ...varint(graphField.value + delta)] });
  return { edits, sites };
}

async function apply(src: Source, edits: Edit[]): Promise<Uint8Array> {
  const size = edits.reduce((n, e) => n + e.bytes.length - (e.end - e.start), src.size);
  const out = new Uint8Array(size);
  let from = 0;
  let at = 0;
  for (const e of edits) {
    await src.copyTo(out, at, from, e.start - from);
    at += e.start - from;
    out.set(e.bytes, at);
    at += e.bytes.length;
    from = e.end;
  }
  await src.copyTo(out, at, from, src.size - from);
  return out;
}

async function rewrite(src: Source): Promise<DflRewrite | undefined> {
  const p = await plan(src);
  if (!p) return undefined;
  return { bytes: await apply(src, p.edits), sites: p.sites };
}

/**
 * The model with its DFL sites rewritten (see the top of this file), or `undefined` when there is nothing to rewrite
 * or anything about the model is not as expected: then the original is what to load. Never throws.
 */
export async function rewriteDfl(source: string | Uint8Array): Promise<DflRewrite | undefined> {
  try {
    if (typeof source !== 'string') return await rewrite(bufferSource(source));
    const handle = await open(source, 'r');
    try {
      const { size } = await handle.stat();
      return await rewrite(fileSource(handle, size));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
