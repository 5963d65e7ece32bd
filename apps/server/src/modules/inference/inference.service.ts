import fs from 'node:fs';
import { ErrorCode } from '@sightline/contracts';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import { cacheTags, type Invalidations, type TaggedCache } from '../../platform/cache/invalidation.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { inferencePolicy } from './inference.policy.js';
import { inferenceRepository, type InferenceModelRow as ModelRow, type InferenceProjectRow, type OnnxFileRow } from './inference.repository.js';
import { InferenceError } from './errors.js';
import type { DecodedImage, InferenceEngine } from './inference.engine.js';
import type { Prediction } from './types.js';

export interface PredictParams {
  imgsz: number;
  conf: number;
  iou: number;
}

/**
 * The model's ONNX file as a local path for onnxruntime: the blob itself when blobs are on local
 * disk, else a copy cached under DATA_DIR/cache (keyed by size, so a replaced file is fetched again).
 */
export async function onnxPathFor(ctx: AppContext, model: ModelRow, known?: OnnxFileRow | null): Promise<string> {
  const file = known !== undefined ? known : await inferenceRepository.onnxFile(ctx.db, model.id);
  if (!file) {
    throw new AppError(409, ErrorCode.NoOnnx, 'This model has no ONNX file. Export it to ONNX (or upload a .onnx file) to run inference.', {
      export: { format: 'onnx', path: `/models/${model.id}?tab=deploy` },
    });
  }
  const local = ctx.blobs.localPath?.(file.blobKey);
  if (local) return local;
  const cached = path.join(ctx.config.dataDir, 'cache', 'models', `${model.id}-${file.bytes}.onnx`);
  if (!fs.existsSync(cached)) {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    const tmp = `${cached}.${process.pid}.part`;
    const { stream } = await ctx.blobs.get(file.blobKey);
    await pipeline(stream, fs.createWriteStream(tmp));
    fs.renameSync(tmp, cached);
  }
  return cached;
}

/** `image`: the upload's bytes, or its decode started ahead with `engine.decode` (a decode error is answered here). */
export async function predictWith(engine: InferenceEngine, modelPath: string, image: Buffer | Promise<DecodedImage>, p: PredictParams): Promise<Prediction> {
  try {
    return await engine.predict(modelPath, image, { imgsz: p.imgsz, conf: p.conf, iou: p.iou });
  } catch (err) {
    throw toAppError(err);
  }
}

export function toAppError(err: unknown): Error {
  if (err instanceof InferenceError) {
    if (err.code === 'invalid_image')
      return new AppError(400, ErrorCode.InvalidImage, `The file is not an image we can read (JPEG, PNG, WebP): ${err.message}`);
    if (err.code === 'unsupported_model' || err.code === 'invalid_model') return new AppError(422, ErrorCode.UnsupportedModel, err.message);
    return new AppError(500, ErrorCode.InferenceFailed, 'Inference failed. Please try again later.');
  }
  return err as Error;
}

/** The HUB-compatible answer: images[].results[] with class, name, confidence, box, segments. */
export function presentPrediction(pred: Prediction, model: ModelRow) {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  // Every object is built with exactly the response schema's fields, in its order: serializePrediction relies on it.
  const s = pred.speed;
  const speed = { decode: s.decode, preprocess: s.preprocess, inference: s.inference, postprocess: s.postprocess };
  return {
    images: [
      {
        shape: [pred.imageSize.height, pred.imageSize.width],
        results: pred.results.map((r) => ({
          class: r.class,
          name: r.name,
          confidence: round(r.confidence),
          ...(r.box ? { box: { x1: round(r.box.x1), y1: round(r.box.y1), x2: round(r.box.x2), y2: round(r.box.y2) } } : {}),
          ...(r.segments ? { segments: { x: r.segments.x.map(round), y: r.segments.y.map(round) } } : {}),
          ...(r.keypoints ? { keypoints: { x: r.keypoints.x, y: r.keypoints.y, ...(r.keypoints.visible ? { visible: r.keypoints.visible } : {}) } } : {}),
        })),
        speed,
      },
    ],
    speed,
    metadata: { model: model.id, task: pred.task, names: pred.names, imgsz: [pred.inputSize.height, pred.inputSize.width] },
  };
}
export type PredictAnswer = ReturnType<typeof presentPrediction>;

/** A model's class names as JSON, once per loaded model (its metadata's array): a classifier has 1,000 of them. */
const namesJson = new WeakMap<readonly string[], string>();

/**
 * A predict answer as JSON, the same text the response schema's (zod) serializer writes for it, without that
 * serializer's walk over every field and name first (0.1-0.15 ms for a classifier's answer, ADR 0041). It can be:
 * presentPrediction builds exactly the schema's fields in its order and no field of it is nullable, so the walk
 * changes nothing. Where a `null` appears (a number that is not finite, which the schema refuses) null is returned
 * and the caller serializes with the schema, which refuses it as it always has.
 */
export function serializePrediction(answer: PredictAnswer): string | null {
  const { metadata } = answer;
  let names = namesJson.get(metadata.names);
  if (names === undefined) namesJson.set(metadata.names, (names = JSON.stringify(metadata.names)));
  const head = `{"images":${JSON.stringify(answer.images)},"speed":${JSON.stringify(answer.speed)},"metadata":{"model":${JSON.stringify(metadata.model)},"task":${JSON.stringify(metadata.task)},"names":`;
  const tail = `,"imgsz":${JSON.stringify(metadata.imgsz)}}}`;
  if (head.includes('null') || tail.includes('null') || (names.includes('null') && metadata.names.some((n) => typeof n !== 'string'))) return null;
  return head + names + tail;
}

/** Model, its project and its ONNX file in one query: this runs on every prediction. */
type PredictModel = { model: ModelRow; project: InferenceProjectRow | null; onnx: OnnxFileRow | null };
const predictModels = new WeakMap<Invalidations, TaggedCache<PredictModel>>();

/**
 * The model, its project and its ONNX file, cached per instance: a change to the model, its files or
 * its project (privacy, trash, a new ONNX) evicts it on every instance through the triggers of
 * migration 0017. Access is still checked on every call.
 */
function predictModelCache(ctx: AppContext) {
  let c = predictModels.get(ctx.invalidations);
  if (!c) predictModels.set(ctx.invalidations, (c = ctx.invalidations.cache<PredictModel>({ ttlMs: 60_000, max: 5_000 })));
  return c;
}

export async function loadModelForInference(ctx: AppContext, viewerId: string | null, modelId: string) {
  const row = await predictModelCache(ctx).getOrLoad(modelId, async () => {
    const r = await inferenceRepository.modelForPredict(ctx.db, modelId);
    return r ? { value: r, tags: [cacheTags.model(modelId), ...(r.model.projectId ? [cacheTags.project(r.model.projectId)] : [])] } : null;
  });
  if (!row || row.model.deletedAt) throw errors.notFound('Model');
  await inferencePolicy.predict(ctx, viewerId, row.model, row.project);
  return { model: row.model, modelPath: await onnxPathFor(ctx, row.model, row.onnx) };
}

/**
 * Analytics stay off the response path: the event is emitted after the answer has been written (the next turn of
 * the event loop), so the listeners' query building and database round trip neither delay nor precede it (ADR 0041).
 */
export function recordInference(ctx: AppContext, userId: string, modelId: string, via: 'shared' | 'dedicated') {
  setImmediate(() => void ctx.events.emit('model.inferred', null, { modelId, actorId: userId, via }));
}
