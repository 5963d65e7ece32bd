import fs from 'node:fs';
import { ErrorCode } from '@sightline/contracts';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { addListener, slot } from '../../platform/registry.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { readOnnxMetadata, parseUltralyticsMetadata } from '../inference/onnx-metadata.js';
import { MULTIPART_SLACK_BYTES, StreamReservation } from '../storage/reservations.service.js';
import { projectsPolicy } from '../projects/projects.policy.js';
import { projectQueries } from '../projects/index.js';
import { createProject } from '../projects/projects.service.js';
import { modelsRepository } from './models.repository.js';
import { createModel } from './models.service.js';

export type WeightsFormat = 'pt' | 'onnx';
export const MAX_MODEL_UPLOAD_BYTES = 2 * 1024 ** 3;

/**
 * Magic bytes: PyTorch ≥ 1.6 saves a zip (PK\3\4), older ones a pickle (\x80 + protocol); an ONNX
 * ModelProto starts with field 1 (ir_version, varint) → 0x08.
 */
export function checkMagic(format: WeightsFormat, head: Buffer): boolean {
  if (head.length < 2) return false;
  if (format === 'pt')
    return (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) || (head[0] === 0x80 && head[1]! >= 2 && head[1]! <= 5);
  return head[0] === 0x08;
}

export function formatOf(filename: string): WeightsFormat | null {
  const ext = path.extname(filename).toLowerCase();
  return ext === '.pt' ? 'pt' : ext === '.onnx' ? 'onnx' : null;
}

/**
 * Streams an uploaded weights file into the blob store: checks magic bytes on the first chunk and
 * stops as soon as the bytes exceed what storage allows, so nothing oversized is ever kept.
 */
export async function storeWeights(
  ctx: AppContext,
  user: { id: string; plan: string },
  modelId: string,
  file: { filename: string; stream: Readable; /** the request's Content-Length: the file plus its multipart headers */ expectedBytes?: number },
): Promise<{
  format: WeightsFormat;
  key: string;
  bytes: number;
  meta: { task: string | null; names: string[]; imgsz: number | null };
  reservation: StreamReservation;
}> {
  const format = formatOf(file.filename);
  if (!format) throw new AppError(400, ErrorCode.InvalidModelFile, 'Upload a .pt or .onnx file');
  // The bytes are reserved before they arrive (ADR 0014): parallel uploads cannot together pass the quota.
  const reservation = new StreamReservation(ctx, user, 'model-upload', {
    expectedBytes: file.expectedBytes,
    slack: MULTIPART_SLACK_BYTES,
    maxBytes: MAX_MODEL_UPLOAD_BYTES + 1,
  });
  const key = blobKeys.modelFile(user.id, modelId, format === 'pt' ? 'best.pt' : 'model.onnx');
  // Keep a local copy of ONNX files to read metadata without a second download.
  const tmp = format === 'onnx' ? path.join(os.tmpdir(), `sl-upload-${modelId}.onnx`) : null;
  let seen = 0;
  let head = Buffer.alloc(0);
  let checked = false;
  const guard = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (!checked) {
        head = Buffer.concat([head, chunk]).subarray(0, 8);
        if (head.length >= 4) {
          checked = true;
          if (!checkMagic(format, head)) return cb(new AppError(400, ErrorCode.InvalidModelFile, `This is not a valid .${format} file`));
        }
      }
      if (seen > MAX_MODEL_UPLOAD_BYTES) return cb(errors.payloadTooLarge('Model files can be at most 2 GB'));
      if (seen <= reservation.held) return cb(null, chunk);
      reservation.cover(seen).then(
        () => cb(null, chunk),
        (err: Error) => cb(err),
      );
    },
    flush(cb) {
      if (!checked && !checkMagic(format, head)) return cb(new AppError(400, ErrorCode.InvalidModelFile, `This is not a valid .${format} file`));
      cb();
    },
  });
  try {
    await reservation.start();
    if (tmp) {
      await pipeline(file.stream, guard, fs.createWriteStream(tmp));
      await ctx.blobs.put(key, fs.createReadStream(tmp), { contentType: 'application/octet-stream' });
    } else {
      const body = new PassThrough();
      await Promise.all([pipeline(file.stream, guard, body), ctx.blobs.put(key, body, { contentType: 'application/octet-stream' })]);
    }
    if (seen === 0) throw new AppError(400, ErrorCode.InvalidModelFile, 'The file is empty');
    let meta = { task: null as string | null, names: [] as string[], imgsz: null as number | null };
    if (tmp) {
      try {
        const info = parseUltralyticsMetadata((await readOnnxMetadata(tmp)).metadataProps);
        meta = { task: info.task, names: info.names, imgsz: info.imgsz[0] };
      } catch {
        // An ONNX file without ultralytics metadata is still a valid upload; inference will say what is missing.
      }
    }
    return { format, key, bytes: seen, meta, reservation };
  } catch (err) {
    // Drain what is left of the part so the multipart parser can finish the request cleanly.
    file.stream.resume();
    await ctx.blobs.delete(key).catch(() => undefined);
    await reservation.release().catch(() => undefined);
    throw err;
  } finally {
    if (tmp) fs.rmSync(tmp, { force: true });
  }
}

export async function attachWeights(ctx: AppContext, modelId: string, stored: { format: WeightsFormat; key: string; bytes: number }, filename: string) {
  const now = ctx.clock.now();
  await modelsRepository.upsertFile(ctx.db, {
    modelId,
    kind: stored.format === 'pt' ? 'best' : 'onnx',
    name: filename,
    blobKey: stored.key,
    bytes: stored.bytes,
    epoch: null,
    createdAt: now,
  });
  await modelsRepository.refreshBytes(ctx.db, modelId);
}

export type StoredWeights = Awaited<ReturnType<typeof storeWeights>>;

type UploadListener = (ctx: AppContext, upload: { userId: string; modelId: string; format: WeightsFormat }) => Promise<void>;
const uploadListeners = slot('models.weightsUploaded', () => [] as UploadListener[]);
/**
 * Called after an upload made its model (exports: a `.pt` gets its ONNX export queued, ADR 0022),
 * so this module imports none of its listeners; per app (ADR 0032).
 */
export function onWeightsUploaded(ctx: Pick<AppContext, 'registry'>, fn: UploadListener) {
  addListener(ctx.registry.of(uploadListeners), fn);
}

/**
 * The weights arrived: the model goes into the given project (one the caller may add models to) or
 * a new one named `projectName`, as a finished model (Trained, spec §4; "trained" for HUB clients).
 */
export async function createUploadedModel(
  ctx: AppContext,
  userId: string,
  modelId: string,
  stored: StoredWeights,
  input: { filename: string; modelName?: string; projectId?: string; projectName?: string },
) {
  let projectId = input.projectId?.trim() || null;
  if (projectId) {
    await projectsPolicy.addModels(ctx, userId, await projectQueries.byId(ctx.db, projectId));
  } else {
    projectId = (await createProject(ctx, userId, { name: input.projectName?.trim() || undefined })).id;
  }
  const meta = stored.meta;
  await createModel(ctx, {
    id: modelId,
    userId,
    projectId,
    name: input.modelName?.trim() || input.filename.replace(/\.(pt|onnx)$/i, ''),
    task: meta.task,
    names: meta.names,
    config: meta.imgsz ? { imageSize: meta.imgsz } : undefined,
    hubStatus: 'trained',
    trainEnd: ctx.clock.now(),
    origin: 'uploaded',
  });
  await attachWeights(ctx, modelId, stored, input.filename);
  // Settled: the model's bytes count in place of the reservation.
  await stored.reservation.release();
  for (const fn of ctx.registry.of(uploadListeners)) {
    await fn(ctx, { userId, modelId, format: stored.format }).catch((err: unknown) => ctx.log.warn({ err, modelId }, 'after-upload step failed'));
  }
}

/** A failed upload keeps nothing: neither the blob nor a half-made model, nor its reservation. */
export async function discardUpload(ctx: AppContext, modelId: string, stored: StoredWeights | null) {
  if (stored) await ctx.blobs.delete(stored.key).catch(() => undefined);
  if (stored) await stored.reservation.release().catch(() => undefined);
  await modelsRepository.remove(ctx.db, modelId).catch(() => undefined);
}
