import crypto from 'node:crypto';
import { EVALUATE_REQUIRES, ErrorCode, evaluationActive, type CreateEvaluationBody, type EvaluationMistakeKind } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { linkVersionOf } from '../access/index.js';
import { readableDataset } from '../datasets/datasets.service.js';
import { imageUrl, thumbnailUrl } from '../datasets/datasets.image-urls.js';
import { hasThumbnail } from '../datasets/datasets.thumbnails.js';
import { readableModel } from '../models/models.service.js';
import { readableProject } from '../projects/projects.service.js';
import { liveModelsInProject } from '../models/models.service.js';
import { mapClasses } from './evaluation.classes.js';
import { presentEvaluation } from './evaluation.presenter.js';
import { evaluationRepository as repo, type EvaluationRow } from './evaluation.repository.js';

export const EVALUATION_QUEUE = 'evaluation.run';
const jobKey = (id: string) => `evaluation:${id}`;

/** The dataset's class names, by dataset class id, as processing read them from its yaml. */
export const datasetClassNames = (row: { stats: { hub?: { names?: string[] } | null; summary?: { classes?: string[] } | null } | null }) =>
  row.stats?.hub?.names ?? row.stats?.summary?.classes ?? [];

/**
 * The model and the dataset of an evaluation, each readable by the caller (EVALUATE_REQUIRES of the
 * permission matrix): 404 for either one the caller may not read.
 */
async function readableBoth(ctx: AppContext, viewerId: string | null, modelId: string, datasetId: string) {
  if (EVALUATE_REQUIRES.model !== 'read' || EVALUATE_REQUIRES.dataset !== 'read') throw new Error('evaluation access is read on both items');
  const model = await readableModel(ctx, viewerId, modelId);
  const dataset = await readableDataset(ctx, viewerId, datasetId);
  return { model, dataset };
}

/** sha256 of the model's ONNX file, computed once per stored file (a new upload or export is a new blob key), per blob store. */
const fileHashes = new WeakMap<AppContext['blobs'], Map<string, Promise<string>>>();
async function onnxHash(ctx: AppContext, file: { blobKey: string; bytes: number; createdAt: Date }) {
  const known = fileHashes.get(ctx.blobs) ?? new Map<string, Promise<string>>();
  fileHashes.set(ctx.blobs, known);
  const key = `${file.blobKey}:${file.bytes}:${file.createdAt.getTime()}`;
  let hash = known.get(key);
  if (!hash) {
    hash = (async () => {
      const h = crypto.createHash('sha256');
      const { stream } = await ctx.blobs.get(file.blobKey);
      for await (const chunk of stream as AsyncIterable<Buffer>) h.update(chunk);
      return h.digest('hex');
    })();
    known.set(key, hash);
    hash.catch(() => known.delete(key));
    if (known.size > 500) known.delete(known.keys().next().value!);
  }
  return hash;
}

/**
 * Starts an evaluation of the model on a dataset split, or answers the one already made of the same
 * files (model ONNX hash + split content hash): completed → its stored result, queued or running → it.
 */
export async function startEvaluation(ctx: AppContext, userId: string, modelId: string, body: CreateEvaluationBody) {
  const { model, dataset } = await readableBoth(ctx, userId, modelId, body.datasetId);
  if (!dataset.processedAt || !dataset.storageKey || dataset.status !== 'Ready')
    throw new AppError(409, ErrorCode.DatasetNotReady, 'The dataset is not ready yet: wait until its processing has finished.');
  const onnx = await repo.onnxFile(ctx.db, model.id);
  if (!onnx)
    throw new AppError(409, ErrorCode.NoOnnx, 'This model has no ONNX file. Export it to ONNX (or upload a .onnx file) to evaluate it.', {
      export: { format: 'onnx', path: `/models/${model.id}?tab=deploy` },
    });
  const task = model.task ?? 'detect';
  if (task === 'obb') throw new AppError(422, ErrorCode.UnsupportedModel, 'Oriented-box (obb) models cannot be evaluated yet.');
  if ((task === 'classify') !== (dataset.task === 'classify')) {
    throw new AppError(422, ErrorCode.Validation, `A ${task} model cannot be evaluated on a ${dataset.task} dataset.`, { field: 'datasetId' });
  }
  const split = await repo.splitHash(ctx.db, dataset.id, body.split);
  if (split.images === 0) throw new AppError(422, ErrorCode.EmptySplit, `The ${body.split} split of this dataset has no images.`, { field: 'split' });
  const names = datasetClassNames(dataset);
  if (model.names.length > 0 && mapClasses(names, model.names).pairs.length === 0) {
    throw new AppError(422, ErrorCode.NoCommonClasses, 'The dataset and the model have no class name in common, so nothing can be scored.', {
      datasetClasses: names.slice(0, 50),
      modelClasses: model.names.slice(0, 50),
    });
  }
  const modelHash = await onnxHash(ctx, onnx);
  const datasetHash = `${dataset.storageKey}:${split.hash}`;
  const existing = await repo.reusable(ctx.db, { modelId: model.id, datasetId: dataset.id, split: body.split, modelHash, datasetHash });
  if (existing) return presentEvaluation(existing, { datasetName: dataset.name, classNames: model.names, reused: existing.status === 'completed' });

  const row = await repo.insert(ctx.db, {
    id: newId(),
    userId,
    modelId: model.id,
    datasetId: dataset.id,
    split: body.split,
    task,
    status: 'queued',
    modelHash,
    datasetHash,
    total: split.images,
    createdAt: ctx.clock.now(),
  });
  await ctx.jobs.enqueue(EVALUATION_QUEUE, { evaluationId: row.id }, { dedupeKey: jobKey(row.id), maxAttempts: 2 });
  await ctx.events.emit('evaluation.started', userId, { evaluationId: row.id, modelId: model.id, datasetId: dataset.id, split: body.split, actorId: userId });
  await publishStatus(ctx, row);
  return presentEvaluation(row, { datasetName: dataset.name, classNames: model.names, reused: false });
}

/** An evaluation the caller may see: it reads both the model and the dataset now (404 otherwise). */
export async function readableEvaluation(ctx: AppContext, viewerId: string | null, id: string) {
  const row = await repo.byId(ctx.db, id);
  if (!row) throw errors.notFound('Evaluation');
  const { model, dataset } = await readableBoth(ctx, viewerId, row.modelId, row.datasetId).catch(() => {
    throw errors.notFound('Evaluation');
  });
  return { row, model, dataset };
}

export async function getEvaluation(ctx: AppContext, viewerId: string | null, id: string) {
  const { row, model, dataset } = await readableEvaluation(ctx, viewerId, id);
  return presentEvaluation(row, { datasetName: dataset.name, classNames: model.names, reused: false });
}

/** The model's evaluations on datasets the caller may read, newest first. */
export async function listModelEvaluations(ctx: AppContext, viewerId: string | null, modelId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  const rows = await repo.ofModel(ctx.db, model.id);
  const datasets = new Map<string, string | null>();
  for (const id of new Set(rows.map((r) => r.datasetId)))
    datasets.set(
      id,
      await readableDataset(ctx, viewerId, id).then(
        (d) => d.name,
        () => null,
      ),
    );
  return rows
    .filter((r) => datasets.get(r.datasetId))
    .map((r) => presentEvaluation(r, { datasetName: datasets.get(r.datasetId)!, classNames: model.names, reused: false, withResult: false }));
}

/**
 * Cancel: whoever may start an evaluation of these items may stop it. A queued one ends at once; a
 * running one stops at its next progress step. A finished one answers 409.
 */
export async function cancelEvaluation(ctx: AppContext, userId: string, id: string) {
  const { row, model, dataset } = await readableEvaluation(ctx, userId, id);
  if (!evaluationActive(row.status)) throw new AppError(409, ErrorCode.JobFinished, `This evaluation has already ended (${row.status}).`);
  const now = ctx.clock.now();
  let next = await repo.updateActive(
    ctx.db,
    row.id,
    row.status === 'queued' ? { status: 'cancelled', cancelRequestedAt: now, finishedAt: now } : { cancelRequestedAt: now },
  );
  if (next?.status === 'cancelled') await publishStatus(ctx, next);
  next ??= (await repo.byId(ctx.db, row.id))!;
  return presentEvaluation(next, { datasetName: dataset.name, classNames: model.names, reused: false });
}

/** The most confident mistakes of a completed evaluation, with the dataset image each one is on. */
export async function evaluationMistakes(
  ctx: AppContext,
  viewerId: string | null,
  id: string,
  q: { kind: EvaluationMistakeKind; classId?: number; limit: number },
) {
  const { row, model, dataset } = await readableEvaluation(ctx, viewerId, id);
  const mistakes = await repo.mistakes(ctx.db, row.id, q.kind, q.classId, q.limit);
  const images = new Map((await repo.imagesByIds(ctx.db, dataset.id, [...new Set(mistakes.map((m) => m.imageId))])).map((i) => [i.imageId, i]));
  const link = { access: linkVersionOf(dataset), expiresAt: shortLinkExpiry(ctx.clock.now()) };
  const classNames = (row.result?.names as string[] | undefined) ?? model.names;
  return {
    datasetClassNames: datasetClassNames(dataset),
    results: mistakes.flatMap((m) => {
      const i = images.get(m.imageId);
      if (!i) return []; // the dataset was processed again since: its old images are gone
      return [
        {
          kind: m.kind,
          classId: m.classId,
          className: classNames[m.classId] ?? `class${m.classId}`,
          confidence: m.confidence,
          prediction: m.prediction,
          label: m.label,
          image: {
            id: i.imageId,
            split: i.split,
            name: i.name,
            width: i.width,
            height: i.height,
            className: i.className,
            labels: i.labels,
            thumbUrl: hasThumbnail(i) ? thumbnailUrl(ctx.secret, dataset.id, i.imageId, link) : null,
            url: imageUrl(ctx.secret, dataset.id, i.imageId, link),
          },
        },
      ];
    }),
  };
}

/** Compare on the project page: per model of the project and dataset split, its newest completed evaluation on a dataset the caller reads. */
export async function projectEvaluations(ctx: AppContext, viewerId: string | null, projectId: string) {
  const project = await readableProject(ctx, viewerId, projectId);
  const models = await liveModelsInProject(ctx, project.id);
  const rows = await repo.completedOfModels(
    ctx.db,
    models.map((m) => m.id),
  );
  const seen = new Set<string>();
  const datasets = new Map<string, string | null>();
  const out = [];
  for (const r of rows) {
    const key = `${r.modelId}:${r.datasetId}:${r.split}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!datasets.has(r.datasetId))
      datasets.set(
        r.datasetId,
        await readableDataset(ctx, viewerId, r.datasetId).then(
          (d) => d.name,
          () => null,
        ),
      );
    const name = datasets.get(r.datasetId);
    const model = models.find((m) => m.id === r.modelId)!;
    if (name) out.push({ ...presentEvaluation(r, { datasetName: name, classNames: model.names, reused: false }), modelName: model.name });
  }
  return { results: out };
}

/** Status and progress reach the model's watchers through evaluation.listeners.ts (ADR 0031). */
export async function publishStatus(ctx: AppContext, row: EvaluationRow) {
  await ctx.events.emit('evaluation.updated', row.userId, { evaluationId: row.id, modelId: row.modelId, status: row.status });
}
export async function publishProgress(ctx: AppContext, row: Pick<EvaluationRow, 'id' | 'modelId' | 'done' | 'total' | 'userId'>) {
  await ctx.events.emit('evaluation.progress', row.userId, { evaluationId: row.id, modelId: row.modelId, done: row.done, total: row.total });
}
