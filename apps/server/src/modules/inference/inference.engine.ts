import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { maskToSegment } from './contours.js';
import { decodeImage } from './decode.js';
import { InferenceError } from './errors.js';
import { ExecutionQueue, runsPerModel } from './execution-queue.js';
import { processMask, processMaskAtProtoResolution } from './mask.js';
import { parseUltralyticsMetadata, readOnnxMetadata, type OnnxModelInfo, type UltralyticsMetadata } from './onnx-metadata.js';
import { rewriteDfl } from './onnx-rewrite.js';
import { decodeDetections, scaleBoxToImage, scalePointToImage, topK, type FrameMapping, type RawDetection } from './postprocess.js';
import { classifyGeometry, classifyToChw, letterboxGeometry, letterboxToChw, valLetterboxGeometry, type RgbImage } from './preprocess.js';
import type { Prediction, PredictionResult, PredictOptions, RawTensor } from './types.js';

/** A model on disk (keyed by its resolved path, reloaded when the file changes) or in memory (keyed by `id`). */
export type ModelRef = string | { id: string; bytes: Uint8Array };

export interface InferenceEngineOptions {
  /**
   * Upper bound for the warm sessions, estimated by model file size; least recently used sessions are released
   * beyond it. The most recently loaded model always stays, even when it alone exceeds the bound. Default 512 MiB.
   */
  maxCacheBytes?: number;
  /** onnxruntime intra-op threads per session; default: onnxruntime's choice (the physical cores). */
  intraOpNumThreads?: number;
  /**
   * How long, in microseconds, onnxruntime's intra-op threads spin for the next work item of a run before they sleep.
   * Default {@link DEFAULT_SPIN_MICROS}: the gaps between one operator and the next are shorter than that, so a run
   * keeps both cores without a futex wake per operator, yet a thread whose partner was preempted gives its core back
   * within 10 µs (ADR 0041). 0: never spin. `Infinity`: onnxruntime's own unbounded spinning, which on a shared
   * 2-core machine under load cost 60 → 110-120 ms of CPU per YOLOv8n run. Threads stop spinning when a run ends.
   */
  spinMicros?: number;
  /** Refuse images with more pixels than this; default 8192 * 8192. */
  maxImagePixels?: number;
  /**
   * `session.run` calls of one model at once; more wait in a FIFO queue. Default: the cores divided by
   * `intraOpNumThreads`, or 1 when onnxruntime picks its threads (one run then uses every core).
   */
  runsPerModel?: number;
  /** Rewrite the YOLO head's DFL at load (onnx-rewrite.ts, ADR 0041); default true. */
  rewriteDfl?: boolean;
}

export const DEFAULT_MAX_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * The default of {@link InferenceEngineOptions.spinMicros}. Measured on 2 cores (AMD EPYC, AVX-512), quiet: a
 * YOLOv8n-cls run 1.9-2.4 → 1.2-1.8 ms and a YOLOv8n 480×640 run 23.0-28.6 → 20.3-26.1 ms against no spinning,
 * with less CPU; under a load of 16 on the same cores, the same CPU per run as no spinning (ADR 0041).
 */
export const DEFAULT_SPIN_MICROS = 10;

/** An image decoded by {@link InferenceEngine.decode}, and how long that took (`speed.decode`). */
export interface DecodedImage {
  image: RgbImage;
  decodeMs: number;
}

/** What the engine learned about a model when loading it. */
export interface ModelDescription {
  key: string;
  bytes: number;
  /** Absent for ONNX files without ultralytics metadata; such models only support {@link InferenceEngine.bareRun}. */
  metadata?: UltralyticsMetadata;
  onnx: OnnxModelInfo;
  input: { name: string; shape: Array<number | string>; dynamic: boolean };
  outputs: Array<{ name: string; shape: Array<number | string> }>;
}

export interface EngineStats {
  maxBytes: number;
  totalBytes: number;
  hits: number;
  misses: number;
  evictions: number;
  /** Most recently used first; `inFlight` counts predictions and runs currently holding the session. */
  models: Array<{
    key: string;
    bytes: number;
    task?: string;
    uses: number;
    inFlight: number;
    running: number;
    waiting: number;
    lastUsedAt: string;
    loadMs: number;
  }>;
}

interface LoadedModel {
  key: string;
  /** File mtime and size when loaded from a path; a different stamp means the file was replaced. */
  stamp?: string;
  session: InferenceSession;
  /** Serialises `session.run` (see {@link ExecutionQueue}). */
  queue: ExecutionQueue;
  description: ModelDescription;
  /**
   * Input tensors to reuse: a 640 px detect input is 4.9 MB, and a fresh one per request made V8 run a
   * full mark-compact every few requests for the external memory alone (after a burst of concurrent
   * requests: +30% latency at concurrency 1, measured in bench/predict-yolov8n). At most
   * {@link SPARE_INPUTS} are kept.
   */
  spareInputs: Float32Array[];
  refs: number;
  evicted: boolean;
  uses: number;
  lastUsed: number;
  loadMs: number;
}

const DEFAULTS = { conf: 0.25, iou: 0.45, maxDet: 300 };
/** One tensor in the run and one being filled for the next request. */
const SPARE_INPUTS = 2;

function ms(from: number, to: number): number {
  return Math.round((to - from) * 1000) / 1000;
}

/**
 * Runs ultralytics YOLO ONNX exports (detect, segment, classify, pose) on encoded images, keeping sessions warm in a
 * size-bounded LRU. Pre- and post-processing reproduce ultralytics 8.3 predict, so results match `YOLO(pt).predict`
 * on the same image to within float rounding.
 */
export class InferenceEngine {
  private readonly maxBytes: number;
  private readonly models = new Map<string, LoadedModel>(); // iteration order = least recently used first
  private readonly loading = new Map<string, Promise<LoadedModel>>();
  private totalBytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(private readonly opts: InferenceEngineOptions = {}) {
    this.maxBytes = opts.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES;
    if (!(this.maxBytes > 0)) throw new RangeError('maxCacheBytes must be positive');
  }

  /** Loads (or finds) a model and describes it; use it to warm the cache or to validate an upload. */
  async load(ref: ModelRef): Promise<ModelDescription> {
    const model = await this.acquire(ref);
    this.releaseRef(model);
    return model.description;
  }

  /**
   * Decodes an image as {@link predict} does (this engine's pixel limit); predict takes the result, or the promise of
   * it, in place of the bytes, so a caller can start the decode (on libuv's thread pool) and do its own work
   * meanwhile (ADR 0041). Rejects with `InferenceError('invalid_image')`.
   */
  async decode(image: Uint8Array): Promise<DecodedImage> {
    const t0 = performance.now();
    const decoded = await decodeImage(image, { maxPixels: this.opts.maxImagePixels });
    return { image: decoded, decodeMs: ms(t0, performance.now()) };
  }

  async predict(ref: ModelRef, image: Uint8Array | DecodedImage | PromiseLike<DecodedImage>, opts: PredictOptions = {}): Promise<Prediction> {
    const conf = opts.conf ?? DEFAULTS.conf;
    const iou = opts.iou ?? DEFAULTS.iou;
    const maxDet = opts.maxDet ?? DEFAULTS.maxDet;
    if (!(conf >= 0 && conf <= 1) || !(iou >= 0 && iou <= 1)) throw new RangeError('conf and iou must be within [0, 1]');
    if (!Number.isInteger(maxDet) || maxDet < 1) throw new RangeError('maxDet must be a positive integer');

    // Decode first: a bad upload should not cost a model load.
    const { image: img, decodeMs } = await (image instanceof Uint8Array ? this.decode(image) : image);

    const model = await this.acquire(ref);
    try {
      const meta = model.description.metadata;
      if (!meta) throw new InferenceError('unsupported_model', 'The model has no ultralytics metadata (task, names)');
      if (meta.task === 'obb') throw new InferenceError('unsupported_model', 'Oriented-box (obb) models are not supported yet');

      const tp = performance.now();
      const target = this.inputTarget(model.description, meta, opts.imgsz);
      const dynamic = model.description.input.dynamic;
      let input: Float32Array;
      let tensorSize: { width: number; height: number };
      let geo: ReturnType<typeof letterboxGeometry> | undefined;
      const spare = model.spareInputs.pop();
      if (meta.task === 'classify') {
        const crop = classifyGeometry(img.width, img.height, target);
        input = classifyToChw(img, crop, spare);
        tensorSize = { width: crop.crop.width, height: crop.crop.height };
      } else {
        // Letterbox straight into the NCHW tensor: no padded HWC copy in between.
        // Val's loader letterboxes to the square (rect=False) whatever the export, dynamic ones included (ADR 0041).
        geo = opts.valLetterbox
          ? valLetterboxGeometry(img.width, img.height, target)
          : letterboxGeometry(img.width, img.height, target, { auto: dynamic && (opts.rect ?? true), stride: meta.stride });
        input = letterboxToChw(img, geo, spare);
        tensorSize = geo.output;
      }
      const t2 = performance.now();

      let ran: Awaited<ReturnType<InferenceEngine['runQueued']>>;
      try {
        ran = await this.runQueued(model, input, [1, 3, tensorSize.height, tensorSize.width]);
      } finally {
        // The run has read the input: it serves the next request (the newest size wins when sizes vary).
        if (model.spareInputs.length < SPARE_INPUTS) model.spareInputs.push(input);
      }
      const { outputs, queuedMs } = ran;
      const t3 = performance.now();

      const frame: FrameMapping = { inputWidth: tensorSize.width, inputHeight: tensorSize.height, width: img.width, height: img.height };
      if (geo && opts.valLetterbox) {
        frame.placed = { scaleX: geo.resized.width / img.width, scaleY: geo.resized.height / img.height, padLeft: geo.pad.left, padTop: geo.pad.top };
      }
      const prediction: Prediction = {
        task: meta.task,
        names: meta.names,
        imageSize: { width: img.width, height: img.height },
        inputSize: { width: tensorSize.width, height: tensorSize.height },
        results: [],
        // `inference` is the run itself, without the wait for the model's execution queue.
        speed: { decode: decodeMs, preprocess: ms(tp, t2), inference: Math.max(0, ms(t2, t3) - queuedMs), postprocess: 0 },
      };
      const name = (cls: number) => meta.names[cls] ?? `class${cls}`;
      if (meta.task === 'classify') {
        const probs = Array.from(this.single(outputs, 2, 'classify').data);
        const top5 = topK(probs, 5).map((c) => ({ class: c, name: name(c), confidence: probs[c] }));
        prediction.results = top5.map((r) => ({ ...r }));
        prediction.top5 = top5;
        prediction.probs = probs;
      } else {
        const protoMasks = opts.protoMasks === true && meta.task === 'segment';
        prediction.results = this.postprocessBoxes(
          meta,
          outputs,
          frame,
          { conf, iou, maxDet, agnostic: opts.agnostic ?? false, multiLabel: opts.multiLabel ?? false },
          name,
          protoMasks,
        );
        if (protoMasks && geo) {
          const protos = this.single(outputs, 4, 'segment');
          prediction.maskGrid = {
            inputWidth: frame.inputWidth,
            inputHeight: frame.inputHeight,
            resizedWidth: geo.resized.width,
            resizedHeight: geo.resized.height,
            padLeft: geo.pad.left,
            padTop: geo.pad.top,
            ratio: frame.inputWidth / protos.dims[3],
          };
        }
      }
      prediction.speed.postprocess = ms(t3, performance.now());
      return prediction;
    } finally {
      this.releaseRef(model);
    }
  }

  /**
   * Runs the model on a ready NCHW float32 tensor and returns every output, with no pre- or post-processing.
   * `dims` defaults to the model's fixed input shape.
   */
  async bareRun(ref: ModelRef, input: Float32Array, dims?: number[]): Promise<Record<string, RawTensor>> {
    const model = await this.acquire(ref);
    try {
      const shape = dims ?? model.description.input.shape.map((d) => (typeof d === 'number' ? d : NaN));
      if (shape.some((d) => !Number.isInteger(d))) throw new RangeError('The model input is dynamic; pass dims');
      return (await this.runQueued(model, input, shape)).outputs;
    } finally {
      this.releaseRef(model);
    }
  }

  /** Releases one model's session (or all of them); returns how many were evicted. */
  async evict(ref?: ModelRef): Promise<number> {
    const keys = ref === undefined ? [...this.models.keys()] : [this.keyOf(ref)];
    let n = 0;
    for (const key of keys) {
      const model = this.models.get(key);
      if (model) {
        await this.drop(model);
        n++;
      }
    }
    return n;
  }

  stats(): EngineStats {
    return {
      maxBytes: this.maxBytes,
      totalBytes: this.totalBytes,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      models: [...this.models.values()].reverse().map((m) => ({
        key: m.key,
        bytes: m.description.bytes,
        task: m.description.metadata?.task,
        uses: m.uses,
        inFlight: m.refs,
        ...m.queue.load,
        lastUsedAt: new Date(m.lastUsed).toISOString(),
        loadMs: m.loadMs,
      })),
    };
  }

  /** Releases every session; the engine stays usable and reloads on demand. */
  async close(): Promise<void> {
    await this.evict();
  }

  private keyOf(ref: ModelRef): string {
    return typeof ref === 'string' ? path.resolve(ref) : `id:${ref.id}`;
  }

  private async acquire(ref: ModelRef): Promise<LoadedModel> {
    const key = this.keyOf(ref);
    let stamp: string | undefined;
    let bytes: number;
    if (typeof ref === 'string') {
      try {
        // Synchronous: a local file's metadata takes microseconds, less than the thread-pool round trip of
        // fs.promises.stat that every prediction paid before (ADR 0041).
        const st = statSync(key);
        stamp = `${st.mtimeMs}:${st.size}`;
        bytes = st.size;
      } catch (err) {
        throw new InferenceError('invalid_model', `Model file not found: ${ref}`, { cause: err });
      }
    } else {
      bytes = ref.bytes.byteLength;
    }
    for (;;) {
      const cached = this.models.get(key);
      if (cached && cached.stamp === stamp) {
        this.hits++;
        this.models.delete(key);
        this.models.set(key, cached);
        return this.use(cached);
      }
      if (cached) await this.drop(cached);
      const pending = this.loading.get(key);
      if (pending) {
        // Share a load already in flight. If it was for another version of the file, look again (the cache now holds
        // that version, which the next pass replaces); if it failed or was already evicted, load our own.
        const model = await pending.catch(() => null);
        if (model && model.stamp === stamp && !model.evicted) {
          this.hits++;
          return this.use(model);
        }
        if (model && model.stamp !== stamp) continue;
      }
      this.misses++;
      const promise = this.loadModel(key, ref, stamp, bytes).then((model) => {
        this.insert(model);
        return model;
      });
      this.loading.set(key, promise);
      try {
        return this.use(await promise);
      } finally {
        if (this.loading.get(key) === promise) this.loading.delete(key);
      }
    }
  }

  private use(model: LoadedModel): LoadedModel {
    model.refs++;
    model.uses++;
    model.lastUsed = Date.now();
    return model;
  }

  private releaseRef(model: LoadedModel): void {
    model.refs--;
    if (model.evicted && model.refs === 0) void model.session.release().catch(() => undefined);
  }

  private insert(model: LoadedModel): void {
    this.models.set(model.key, model);
    this.totalBytes += model.description.bytes;
    for (const other of this.models.values()) {
      if (this.totalBytes <= this.maxBytes) break;
      if (other === model) continue;
      this.evictions++;
      void this.drop(other);
    }
  }

  private async drop(model: LoadedModel): Promise<void> {
    if (this.models.get(model.key) !== model) return;
    this.models.delete(model.key);
    this.totalBytes -= model.description.bytes;
    model.evicted = true;
    // A run in flight keeps its session; the last releaseRef frees it.
    if (model.refs === 0) await model.session.release().catch(() => undefined);
  }

  private async loadModel(key: string, ref: ModelRef, stamp: string | undefined, bytes: number): Promise<LoadedModel> {
    const started = performance.now();
    const source = typeof ref === 'string' ? key : ref.bytes;
    let onnx: OnnxModelInfo;
    let session: InferenceSession;
    try {
      onnx = await readOnnxMetadata(source);
      const options = sessionOptions(this.opts);
      const create = (s: string | Uint8Array) => (typeof s === 'string' ? InferenceSession.create(s, options) : InferenceSession.create(s, options));
      // The YOLO head's DFL in a form onnxruntime runs faster, same values (onnx-rewrite.ts, ADR 0041); the original
      // when there is nothing to rewrite or the rewritten graph does not load.
      const rewritten = this.opts.rewriteDfl === false ? undefined : await rewriteDfl(source);
      session = rewritten ? await create(rewritten.bytes).catch(() => create(source)) : await create(source);
    } catch (err) {
      if (err instanceof InferenceError) throw err;
      throw new InferenceError('invalid_model', `Could not load the ONNX model: ${(err as Error).message}`, { cause: err });
    }
    try {
      const description = describe(key, bytes, onnx, session);
      const queue = new ExecutionQueue(this.opts.runsPerModel ?? runsPerModel(os.availableParallelism(), this.opts.intraOpNumThreads));
      return {
        key,
        stamp,
        session,
        queue,
        description,
        spareInputs: [],
        refs: 0,
        evicted: false,
        uses: 0,
        lastUsed: Date.now(),
        loadMs: ms(started, performance.now()),
      };
    } catch (err) {
      await session.release().catch(() => undefined);
      throw err;
    }
  }

  private inputTarget(desc: ModelDescription, meta: UltralyticsMetadata, imgsz: PredictOptions['imgsz']): [number, number] {
    const [, , h, w] = desc.input.shape;
    if (typeof h === 'number' && typeof w === 'number') return [h, w];
    const want: [number, number] = imgsz === undefined ? meta.imgsz : typeof imgsz === 'number' ? [imgsz, imgsz] : imgsz;
    if (!want.every((v) => Number.isInteger(v) && v > 0 && v <= 8192)) throw new RangeError('imgsz must be integers in 1..8192');
    // ultralytics check_imgsz: round up to a multiple of the stride.
    const stride = meta.task === 'classify' ? 1 : meta.stride;
    return [Math.ceil(want[0] / stride) * stride, Math.ceil(want[1] / stride) * stride];
  }

  /** {@link runSession} through the model's execution queue; `queuedMs` is the wait for a slot. */
  private async runQueued(model: LoadedModel, input: Float32Array, dims: number[]): Promise<{ outputs: Record<string, RawTensor>; queuedMs: number }> {
    const queued = performance.now();
    let started = queued;
    const outputs = await model.queue.run(() => {
      started = performance.now();
      return this.runSession(model, input, dims);
    });
    return { outputs, queuedMs: ms(queued, started) };
  }

  private async runSession(model: LoadedModel, input: Float32Array, dims: number[]): Promise<Record<string, RawTensor>> {
    let results: InferenceSession.ReturnType;
    try {
      results = await model.session.run({ [model.description.input.name]: new Tensor('float32', input, dims) });
    } catch (err) {
      throw new InferenceError('inference_failed', `onnxruntime failed: ${(err as Error).message}`, { cause: err });
    }
    const out: Record<string, RawTensor> = {};
    for (const name of model.description.outputs.map((o) => o.name)) {
      const t = results[name] as Tensor;
      if (t.type !== 'float32') throw new InferenceError('unsupported_model', `Output ${name} is ${t.type}, expected float32`);
      out[name] = { dims: [...t.dims], data: t.data as Float32Array };
    }
    return out;
  }

  /** The model's only output of the given rank (outputs are told apart by shape, not by name). */
  private single(outputs: Record<string, RawTensor>, rank: number, task: string): RawTensor {
    const found = Object.values(outputs).filter((o) => o.dims.length === rank);
    if (found.length !== 1) throw new InferenceError('unsupported_model', `A ${task} model must have exactly one rank-${rank} output`);
    return found[0];
  }

  private postprocessBoxes(
    meta: UltralyticsMetadata,
    outputs: Record<string, RawTensor>,
    frame: FrameMapping,
    nmsOpts: { conf: number; iou: number; maxDet: number; agnostic: boolean; multiLabel: boolean },
    name: (cls: number) => string,
    protoMasks = false,
  ): PredictionResult[] {
    const head = this.single(outputs, 3, meta.task);
    const protos = meta.task === 'segment' ? this.single(outputs, 4, 'segment') : undefined;
    const kpt = meta.kptShape ?? [17, 3];
    const extra = protos ? protos.dims[1] : meta.task === 'pose' ? kpt[0] * kpt[1] : 0;
    const end2end = meta.args?.nms === true || meta.args?.end2end === true;
    // A raw head has 4 + nc + extra rows; end-to-end rows carry a class id instead of per-class scores.
    const nc = end2end ? meta.names.length : head.dims[1] - 4 - extra;
    if (nc < 1) throw new InferenceError('unsupported_model', `Output shape [${head.dims.join(', ')}] does not fit a ${meta.task} head`);
    let dets: RawDetection[];
    try {
      dets = decodeDetections(head.data, head.dims, { nc, extra, end2end, ...nmsOpts });
    } catch (err) {
      throw new InferenceError('unsupported_model', (err as Error).message, { cause: err });
    }

    const results: PredictionResult[] = [];
    for (const det of dets) {
      const [x1, y1, x2, y2] = scaleBoxToImage(det.box, frame);
      const result: PredictionResult = { class: det.cls, name: name(det.cls), confidence: det.score, box: { x1, y1, x2, y2 } };
      if (protos && det.extra) {
        const [, count, ph, pw] = protos.dims;
        const { mask, pixels } = processMask({ data: protos.data, count, height: ph, width: pw }, det.extra, det.box, frame.inputWidth, frame.inputHeight);
        // ultralytics predict drops detections whose mask came out empty; its validator keeps them.
        if (pixels === 0 && !protoMasks) continue;
        if (protoMasks)
          result.protoMask = {
            width: pw,
            height: ph,
            data: processMaskAtProtoResolution({ data: protos.data, count, height: ph, width: pw }, det.extra, det.box, frame.inputWidth, frame.inputHeight),
          };
        const polygon = maskToSegment(mask, frame.inputWidth, frame.inputHeight);
        const xs: number[] = [];
        const ys: number[] = [];
        for (const [px, py] of polygon) {
          const [sx, sy] = scalePointToImage(px, py, frame);
          xs.push(sx);
          ys.push(sy);
        }
        result.segments = { x: xs, y: ys };
        result.maskPixels = pixels;
      }
      if (meta.task === 'pose' && det.extra) {
        const [nk, nd] = kpt;
        const kp: NonNullable<PredictionResult['keypoints']> = { x: [], y: [], ...(nd === 3 ? { visible: [] } : {}) };
        for (let k = 0; k < nk; k++) {
          const [sx, sy] = scalePointToImage(det.extra[k * nd], det.extra[k * nd + 1], frame);
          kp.x.push(sx);
          kp.y.push(sy);
          kp.visible?.push(det.extra[k * nd + 2]);
        }
        result.keypoints = kp;
      }
      results.push(result);
    }
    return results;
  }
}

/** The onnxruntime session options of the engine (exported so benchmarks time bare runs on identical sessions). */
export function sessionOptions(opts: Pick<InferenceEngineOptions, 'intraOpNumThreads' | 'spinMicros'> = {}): InferenceSession.SessionOptions {
  const spin = opts.spinMicros ?? DEFAULT_SPIN_MICROS;
  if (!(spin >= 0)) throw new RangeError('spinMicros must be 0 or more');
  const intraOp: Record<string, string> = { allow_spinning: spin > 0 ? '1' : '0' };
  if (spin > 0 && Number.isFinite(spin)) intraOp.spin_duration_us = String(Math.round(spin));
  const options: InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    // Runs are sequential (one operator at a time), so inter-op threads have nothing to spin for.
    extra: { session: { intra_op: intraOp, inter_op: { allow_spinning: '0' }, force_spinning_stop: '1' } },
  };
  if (opts.intraOpNumThreads) options.intraOpNumThreads = opts.intraOpNumThreads;
  return options;
}

function describe(key: string, bytes: number, onnx: OnnxModelInfo, session: InferenceSession): ModelDescription {
  if (session.inputNames.length !== 1) throw new InferenceError('unsupported_model', `Expected one model input, found ${session.inputNames.length}`);
  const inMeta = session.inputMetadata[0];
  if (!inMeta?.isTensor || inMeta.type !== 'float32') throw new InferenceError('unsupported_model', 'The model input must be a float32 tensor');
  const shape = [...inMeta.shape];
  if (shape.length !== 4) throw new InferenceError('unsupported_model', `The model input must be NCHW, got [${shape.join(', ')}]`);
  const [batch, channels] = shape;
  if (typeof batch === 'number' && batch !== 1)
    throw new InferenceError('unsupported_model', `Batch size ${batch} models are not supported; export with batch=1`);
  if (typeof channels === 'number' && channels !== 3) throw new InferenceError('unsupported_model', `Only 3-channel models are supported, got ${channels}`);
  shape[0] = 1;
  shape[1] = 3;
  const metadata = onnx.metadataProps.task ? parseUltralyticsMetadata(onnx.metadataProps) : undefined;
  return {
    key,
    bytes,
    metadata,
    onnx,
    input: { name: session.inputNames[0], shape, dynamic: typeof shape[2] !== 'number' || typeof shape[3] !== 'number' },
    outputs: session.outputMetadata.map((o) => ({ name: o.name, shape: o.isTensor ? [...o.shape] : [] })),
  };
}
