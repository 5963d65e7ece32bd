import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, EXPORT_OUTPUTS, type ExportFormat, type ExportOptions } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { ownedModel, readableModel } from '../models/models.service.js';
import { modelQueries } from '../models/index.js';
import { streamIntoStore } from '../training/training.files.js';
import { fileOf } from '../training/training.service.js';
import type { AgentJobRow, ModelExportRow } from '../agents/agents.service.js';
import { agentQueries, enqueueJob, heldJob, onJobFinished, onlineSince, onSweep, registerJobKind, tailOf } from '../agents/agents.service.js';
import type { AgentRow } from '../agents/agents.service.js';
import { publishModelChange } from '../agents/agents.events.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { parseUltralyticsMetadata, readOnnxMetadata } from '../inference/onnx-metadata.js';
import { onWeightsUploaded } from '../models/models.upload.js';
import { exportWorkerOf } from './exports.local-worker.js';

/**
 * Exports are agent jobs: `yolo export model=best.pt format=<f> <options>` runs on a GPU host, its
 * console is kept as the export's log, and the file it writes is uploaded. A finished export is a
 * model file of kind `<format>` (so model `exports` and byte totals count it); a finished ONNX
 * export is the model's inference file, so Preview and /v1/predict work at once.
 */

export const EXPORT_ATTEMPTS = 3;
const AUTO_ONNX_WINDOW_MS = 24 * 3_600_000;

export async function listExports(ctx: AppContext, viewerId: string | null, modelId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  const rows = await agentQueries.exportsOfModel(ctx.db, model.id);
  const online = await agentQueries.onlineAgents(ctx.db, onlineSince(ctx), model.userId);
  return { model, rows, agentsOnline: online.length, worker: exportWorkerAvailability(ctx, online.length) };
}

/**
 * Can anything run this owner's exports now (ADR 0022)? An online agent that may take them, or
 * this server's built-in worker when it is ready or running. The model page says so before anyone
 * tries to preview.
 */
export function exportWorkerAvailability(ctx: AppContext, agentsOnline: number) {
  const local = exportWorkerOf(ctx);
  const state = local?.state ?? 'off';
  return { available: agentsOnline > 0 || state === 'ready' || state === 'running', local: state, reason: local?.reason ?? null };
}

export async function createExport(ctx: AppContext, userId: string, modelId: string, input: { format: ExportFormat; options: ExportOptions; auto?: boolean }) {
  const model = await ownedModel(ctx, userId, modelId);
  if (model.deletedAt) throw errors.notFound('Model');
  if (!(await fileOf(ctx, model.id, 'best'))) throw new AppError(409, ErrorCode.NoWeights, 'This model has no trained weights to export yet');
  const now = ctx.clock.now();
  const id = newId();
  const job = await enqueueJob(ctx, {
    kind: 'export',
    userId: model.userId,
    modelId: model.id,
    exportId: id,
    args: { format: input.format, options: input.options },
    maxAttempts: EXPORT_ATTEMPTS,
  });
  const row = await agentQueries.insertExport(ctx.db, {
    id,
    modelId: model.id,
    userId: model.userId,
    format: input.format,
    options: input.options,
    status: 'queued',
    jobId: job.id,
    auto: input.auto ?? false,
    attempts: 1,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.events.emit('export.requested', model.userId, { modelId: model.id, actorId: userId, format: input.format, auto: input.auto ?? false });
  await publishModelChange(ctx, model.id);
  exportWorkerOf(ctx)?.exportQueued();
  return row;
}

/** A failed or cancelled export runs again as a new job (its log starts afresh). */
export async function retryExport(ctx: AppContext, userId: string, modelId: string, exportId: string) {
  const row = await ownedExport(ctx, userId, modelId, exportId);
  if (row.status !== 'failed' && row.status !== 'cancelled')
    throw errors.conflict(ErrorCode.ExportNotFailed, `This export is ${row.status}; only failed or cancelled exports can be retried`);
  const job = await enqueueJob(ctx, {
    kind: 'export',
    userId: row.userId,
    modelId: row.modelId,
    exportId: row.id,
    args: { format: row.format, options: row.options },
    maxAttempts: EXPORT_ATTEMPTS,
  });
  const now = ctx.clock.now();
  const updated = (await agentQueries.updateExport(ctx.db, row.id, {
    status: 'queued',
    jobId: job.id,
    error: null,
    attempts: row.attempts + 1,
    finishedAt: null,
    updatedAt: now,
  }))!;
  await publishModelChange(ctx, row.modelId);
  exportWorkerOf(ctx)?.exportQueued();
  return updated;
}

export async function ownedExport(ctx: AppContext, userId: string, modelId: string, exportId: string) {
  const model = await ownedModel(ctx, userId, modelId);
  const row = await agentQueries.exportById(ctx.db, exportId);
  if (!row || row.modelId !== model.id) throw errors.notFound('Export');
  return row;
}

export async function readableExport(ctx: AppContext, viewerId: string | null, modelId: string, exportId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  const row = await agentQueries.exportById(ctx.db, exportId);
  if (!row || row.modelId !== model.id) throw errors.notFound('Export');
  return { model, row };
}

/** Latest export of a format (legacy `POST /get-export`). */
export async function latestExport(ctx: AppContext, userId: string, modelId: string, format: string) {
  const model = await ownedModel(ctx, userId, modelId);
  const row = await agentQueries.latestExport(ctx.db, model.id, format);
  if (!row) throw errors.notFound('Export');
  return row;
}

/**
 * The `yolo export` words of an export (ADR 0041): an ONNX export is made with dynamic height and width unless the
 * user chose `dynamic` themselves, so the server runs it at the letterboxed rectangle of each image (the long side
 * to imgsz, the short side padded to a multiple of the stride), as ultralytics' own predict does.
 */
export function exportArgs(format: ExportFormat, options: Record<string, unknown>): string[] {
  const effective = format === 'onnx' && options.dynamic === undefined ? { ...options, dynamic: true } : options;
  const args = ['export', 'model=best.pt', `format=${format}`];
  for (const [k, v] of Object.entries(effective))
    if (v !== undefined && v !== null) args.push(`${k}=${typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v)}`);
  return args;
}

/** What the agent runs for an export job. */
export async function exportCommand(ctx: AppContext, job: AgentJobRow, baseUrl: string) {
  const format = String(job.args.format) as ExportFormat;
  const out = EXPORT_OUTPUTS[format];
  return {
    args: exportArgs(format, (job.args.options ?? {}) as Record<string, unknown>),
    env: {},
    inputs: [{ name: 'best.pt', url: `${baseUrl}/v1/agents/jobs/${job.id}/input` }],
    artifact: `best${out.suffix}`,
  };
}

export async function exportInputKey(ctx: AppContext, agent: AgentRow, jobId: string) {
  const job = await heldJob(ctx, agent, jobId);
  const best = await fileOf(ctx, job.modelId, 'best');
  if (!best) throw errors.notFound('Weights');
  return best.blobKey;
}

/** The file `yolo export` wrote (a folder arrives as .tar.gz), kept under the model until the job ends. */
export async function storeArtifact(ctx: AppContext, agent: AgentRow, jobId: string, name: string, body: Readable, declaredBytes?: number) {
  const job = await heldJob(ctx, agent, jobId);
  if (job.kind !== 'export' || !job.exportId) throw errors.validation('Only export jobs upload artifacts');
  const row = (await agentQueries.exportById(ctx.db, job.exportId))!;
  const owner = await agentQueries.userPlan(ctx.db, job.userId);
  const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 200) || 'artifact';
  const key = blobKeys.modelFile(job.userId, job.modelId, `exports/${row.id}/${job.id}-${safe}`);
  const { bytes } = await streamIntoStore(ctx, { id: job.userId, plan: owner?.plan ?? 'free' }, key, body, { declaredBytes });
  await agentQueries.updateExport(ctx.db, row.id, { fileName: safe, blobKey: key, bytes, updatedAt: ctx.clock.now() });
  return { bytes };
}

/** The export row follows its job's end; success needs the uploaded file. */
export async function onExportJobFinished(ctx: AppContext, job: AgentJobRow, status: 'succeeded' | 'failed' | 'cancelled', reason: string | null) {
  const row = job.exportId ? await agentQueries.exportById(ctx.db, job.exportId) : null;
  if (!row || row.jobId !== job.id) return { status, error: reason };
  const now = ctx.clock.now();
  let finalStatus = status;
  let error = reason;
  if (status === 'succeeded' && (!row.blobKey || !row.bytes)) {
    finalStatus = 'failed';
    error = `yolo export finished but did not write ${EXPORT_OUTPUTS[row.format as ExportFormat]?.suffix ?? 'a file'}`;
  }
  if (finalStatus === 'failed') {
    const tail = await tailOf(ctx, job.id);
    if (tail) error = `${error ?? 'Export failed'}\n${tail}`;
  }
  if (finalStatus === 'succeeded') await promoteExport(ctx, row);
  else if (row.blobKey) await ctx.blobs.delete(row.blobKey).catch(() => undefined);
  await agentQueries.updateExport(ctx.db, row.id, {
    status: finalStatus,
    error: error?.slice(0, 4000) ?? null,
    finishedAt: now,
    updatedAt: now,
    ...(finalStatus === 'succeeded' ? {} : { blobKey: null, bytes: null, fileName: null }),
  });
  await publishModelChange(ctx, row.modelId);
  if (finalStatus === 'succeeded')
    await ctx.events.emit('model.exported', job.userId, {
      model: { id: row.modelId },
      export: { id: row.id, format: row.format, bytes: row.bytes, fileName: row.fileName },
    });
  return { status: finalStatus, error };
}

export async function onExportJobRequeued(ctx: AppContext, job: AgentJobRow) {
  if (!job.exportId) return;
  const row = await agentQueries.exportById(ctx.db, job.exportId);
  if (!row || row.jobId !== job.id) return;
  if (row.blobKey) await ctx.blobs.delete(row.blobKey).catch(() => undefined);
  await agentQueries.updateExport(ctx.db, row.id, { status: 'queued', blobKey: null, bytes: null, fileName: null, updatedAt: ctx.clock.now() });
}

/** The export becomes the model's file of kind `<format>`; for onnx that is the inference file. */
async function promoteExport(ctx: AppContext, row: ModelExportRow) {
  const model = await modelQueries.byId(ctx.db, row.modelId);
  if (!model) return;
  const previous = await fileOf(ctx, model.id, row.format);
  await ctx.db.transaction(async (tx) => {
    await modelQueries.upsertFile(tx, {
      modelId: model.id,
      kind: row.format,
      name: row.fileName ?? `best.${row.format}`,
      blobKey: row.blobKey!,
      bytes: row.bytes!,
      epoch: null,
      createdAt: ctx.clock.now(),
    });
    await modelQueries.refreshBytes(tx, model.id);
  });
  // The replaced export's file stays downloadable from its own row; a blob no row points at goes.
  if (previous && previous.blobKey !== row.blobKey && (await agentQueries.exportsWithBlob(ctx.db, previous.blobKey)).length === 0) {
    await ctx.blobs.delete(previous.blobKey).catch(() => undefined);
  }
  if (row.format === 'onnx')
    await learnFromOnnx(ctx, model.id, row.blobKey!).catch((err: unknown) => ctx.log.warn({ err, modelId: model.id }, 'ONNX metadata not read'));
}

/**
 * What the exported ONNX file says about the weights (ultralytics writes task, names and imgsz into
 * its metadata): an uploaded `.pt` gets its task, classes and image size as soon as its export
 * finished (ADR 0022). What the model already knows is kept.
 */
async function learnFromOnnx(ctx: AppContext, modelId: string, blobKey: string) {
  const local = ctx.blobs.localPath?.(blobKey) ?? null;
  const tmp = local ? null : path.join(os.tmpdir(), `sl-export-meta-${newId()}.onnx`);
  try {
    if (tmp) await pipeline((await ctx.blobs.get(blobKey)).stream, fs.createWriteStream(tmp));
    const meta = parseUltralyticsMetadata((await readOnnxMetadata((local ?? tmp)!)).metadataProps);
    const model = await modelQueries.byId(ctx.db, modelId);
    if (!model) return;
    const config = model.config as { imageSize?: unknown };
    const patch = {
      ...(model.task ? {} : { task: meta.task }),
      ...(model.names.length || !meta.names.length ? {} : { names: meta.names }),
      ...(typeof config.imageSize === 'number' || !meta.imgsz[0] ? {} : { config: { ...model.config, imageSize: meta.imgsz[0] } }),
    };
    if (Object.keys(patch).length) await modelQueries.update(ctx.db, modelId, { ...patch, updatedAt: ctx.clock.now() });
  } finally {
    if (tmp) fs.rmSync(tmp, { force: true });
  }
}

let autoRunning = false;
/**
 * A model trained by the ultralytics client has no ONNX file, so predict answers error/no-onnx:
 * its ONNX export is queued by itself, whether or not a worker is there yet (the model page says
 * when none is; ADR 0022). The sweep catches runs whose end this instance did not see.
 */
export async function queueAutoOnnxExports(ctx: AppContext) {
  if (autoRunning) return;
  autoRunning = true;
  try {
    const candidates = await agentQueries.modelsNeedingOnnx(ctx.db, new Date(ctx.clock.now().getTime() - AUTO_ONNX_WINDOW_MS));
    for (const c of candidates) await queueOnnxExport(ctx, c.id);
  } finally {
    autoRunning = false;
  }
}

/** Queues a model's ONNX export unless it has an ONNX file, has had an ONNX export, or has no weights. */
export async function queueOnnxExport(ctx: AppContext, modelId: string) {
  const model = await modelQueries.byId(ctx.db, modelId);
  if (!model || model.deletedAt) return null;
  if ((await fileOf(ctx, model.id, 'onnx')) || !(await fileOf(ctx, model.id, 'best'))) return null;
  if (await agentQueries.latestExport(ctx.db, model.id, 'onnx')) return null;
  return createExport(ctx, model.userId, model.id, { format: 'onnx', options: {}, auto: true }).catch((err: unknown) => {
    ctx.log.warn({ err, modelId: model.id }, 'auto ONNX export not queued');
    return null;
  });
}

export async function onExportJobClaimed(ctx: AppContext, job: AgentJobRow) {
  if (!job.exportId) return;
  await agentQueries.updateExport(ctx.db, job.exportId, { status: 'running', updatedAt: ctx.clock.now() });
}

/**
 * Legacy `POST /model-reset` (hub-protocol §5.10): a trained model is downloaded, not trained, by
 * the HUB client; a reset makes it trainable again (status new, no training dates). Reported
 * metrics, files and exports stay; the next run overwrites epochs it reports again.
 */
export async function resetModel(ctx: AppContext, userId: string, modelId: string) {
  const model = await ownedModel(ctx, userId, modelId);
  const live = await agentQueries.latestTrainJob(ctx.db, model.id);
  if (live && ['queued', 'claimed', 'running'].includes(live.status))
    throw errors.conflict(ErrorCode.TrainingQueued, 'A cloud run for this model is queued or running; stop it first');
  const updated = await modelQueries.update(ctx.db, model.id, {
    hubStatus: 'new',
    trainStart: null,
    trainEnd: null,
    trainHeartbeat: null,
    trainInitialized: null,
    epochsDone: 0,
    updatedAt: ctx.clock.now(),
  });
  await publishModelChange(ctx, model.id);
  return updated ?? model;
}

/**
 * What exports add to other modules, on this app's ctx (ADR 0032): the `export` agent-job kind, the
 * sweep that queues automatic ONNX exports, and the ONNX export that follows a cloud run's weights and
 * an uploaded `.pt`.
 */
export function registerExportJobs(ctx: AppContext) {
  registerJobKind(ctx, 'export', { command: exportCommand, onClaimed: onExportJobClaimed, onFinished: onExportJobFinished, onRequeued: onExportJobRequeued });
  onSweep(ctx, queueAutoOnnxExports);
  // A cloud run's weights arrived over the Platform protocol: its ONNX export (for Preview) follows at once.
  onJobFinished(ctx, async (ctx, job) => {
    if (job.kind === 'train' && job.status === 'succeeded') await queueAutoOnnxExports(ctx);
  });
  // Uploaded `.pt` weights: Preview needs their ONNX file (ADR 0022).
  onWeightsUploaded(ctx, async (ctx, upload) => {
    if (upload.format === 'pt') await queueOnnxExport(ctx, upload.modelId);
  });
}
