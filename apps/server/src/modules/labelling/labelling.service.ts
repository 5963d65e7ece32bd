import { ErrorCode, type PrelabelBody, type ReviewQuery, type SuggestionActionBody } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { newId } from '../../platform/ids.js';
import { linkVersionOf } from '../access/index.js';
import { imageUrl, thumbnailUrl } from '../datasets/datasets.image-urls.js';
import { appendImageLabels, classesOf } from '../datasets/datasets.edits.js';
import { ownedDataset, readableDataset } from '../datasets/datasets.service.js';
import { hasThumbnail } from '../datasets/datasets.thumbnails.js';
import { liveVersionByNumber } from '../dataset-versions/index.js';
import type { DatasetRow } from '../datasets/index.js';
import { evaluationQueries } from '../evaluation/index.js';
import { readableEvaluation } from '../evaluation/evaluation.service.js';
import { loadModelForInference } from '../inference/inference.service.js';
import { canLabel, resolveClassMap } from './labelling.classes.js';
import { presentJob, presentSuggestion } from './labelling.presenter.js';
import { labellingRepository as repo, type PrelabelJobRow, type SuggestionRow } from './labelling.repository.js';

export const PRELABEL_QUEUE = 'labelling.prelabel';

/** The dataset's class names by class id: its working class list (ADR 0037). */
export const classNamesOf = (dataset: DatasetRow) => classesOf(dataset);

/** A dataset the caller may label (ADR 0039: `label` in the matrix): 404 unreadable, 403 not allowed. */
export const labelableDataset = (ctx: AppContext, userId: string, id: string) => ownedDataset(ctx, userId, id, { action: 'label' });

function readyOrRefuse(dataset: DatasetRow) {
  if (!dataset.processedAt || !dataset.storageKey || dataset.status !== 'Ready')
    throw new AppError(409, ErrorCode.DatasetNotReady, 'The dataset is not ready yet: wait until its processing has finished.');
}

/**
 * Starts pre-labelling: the model (one the caller may run: `predict`) proposes labels for a split,
 * some images or the whole dataset, as a job with progress. Its proposals are kept as suggestions.
 */
export async function startPrelabel(ctx: AppContext, userId: string, datasetId: string, body: PrelabelBody & { conf: number }) {
  const dataset = await labelableDataset(ctx, userId, datasetId);
  readyOrRefuse(dataset);
  const { model } = await loadModelForInference(ctx, userId, body.modelId);
  const task = model.task ?? 'detect';
  if (!canLabel(dataset.task, task))
    throw new AppError(422, ErrorCode.Validation, `A ${task} model cannot label a ${dataset.task} dataset.`, { field: 'modelId' });
  const names = classNamesOf(dataset);
  const { map, unknownModel, unknownDataset } = resolveClassMap(model.names, names, body.classMap ?? {});
  if (unknownModel.length || unknownDataset.length)
    throw new AppError(
      422,
      ErrorCode.UnknownClass,
      `The class map names ${[...unknownModel.map((n) => `model class "${n}"`), ...unknownDataset.map((n) => `dataset class "${n}"`)].join(', ')}, which does not exist.`,
      { field: 'classMap', unknownModel, unknownDataset, modelClasses: model.names.slice(0, 100), datasetClasses: names.slice(0, 100) },
    );
  if (!map.some((m) => m.datasetClass !== null))
    throw new AppError(422, ErrorCode.NoClassMapped, 'No model class goes to a dataset class: name the pairs in the class map.', {
      field: 'classMap',
      modelClasses: model.names.slice(0, 100),
      datasetClasses: names.slice(0, 100),
    });
  const imageIds = body.imageIds ? [...new Set(body.imageIds)] : null;
  const total = await repo.countImages(ctx.db, dataset.id, { split: body.split ?? null, imageIds });
  if (imageIds && total !== imageIds.length) throw errors.notFound('Image');
  if (total === 0) throw new AppError(422, ErrorCode.EmptySplit, `The ${body.split ?? ''} split of this dataset has no images.`, { field: 'split' });
  const row = await repo.insertJob(ctx.db, {
    id: newId(),
    datasetId: dataset.id,
    userId,
    modelId: model.id,
    split: body.split ?? null,
    imageIds,
    conf: body.conf,
    classMap: map,
    status: 'queued',
    total,
    createdAt: ctx.clock.now(),
  });
  await ctx.jobs.enqueue(PRELABEL_QUEUE, { jobId: row.id }, { dedupeKey: `prelabel:${row.id}`, maxAttempts: 2 });
  await ctx.events.emit('dataset.prelabel.started', userId, { jobId: row.id, datasetId: dataset.id, modelId: model.id, actorId: userId, total });
  await publishJob(ctx, row);
  return presentJob(row, model.name);
}

/** A pre-labelling job of a dataset the caller may read. */
export async function getPrelabelJob(ctx: AppContext, viewerId: string | null, datasetId: string, jobId: string) {
  const dataset = await readableDataset(ctx, viewerId, datasetId);
  const row = await repo.jobById(ctx.db, jobId);
  if (!row || row.datasetId !== dataset.id) throw errors.notFound('Pre-labelling job');
  return presentJob(row, await modelName(ctx, viewerId, row.modelId));
}

export async function listPrelabelJobs(ctx: AppContext, viewerId: string | null, datasetId: string) {
  const dataset = await readableDataset(ctx, viewerId, datasetId);
  const rows = await repo.jobsOfDataset(ctx.db, dataset.id);
  const names = new Map<string, string>();
  for (const id of new Set(rows.map((r) => r.modelId))) names.set(id, await modelName(ctx, viewerId, id));
  return rows.map((r) => presentJob(r, names.get(r.modelId)!));
}

/** Cancel: whoever may label the dataset. A queued job ends at once; a running one at its next progress step. */
export async function cancelPrelabel(ctx: AppContext, userId: string, datasetId: string, jobId: string) {
  const dataset = await labelableDataset(ctx, userId, datasetId);
  const row = await repo.jobById(ctx.db, jobId);
  if (!row || row.datasetId !== dataset.id) throw errors.notFound('Pre-labelling job');
  if (row.status !== 'queued' && row.status !== 'running') throw new AppError(409, ErrorCode.JobFinished, `This job has already ended (${row.status}).`);
  const now = ctx.clock.now();
  const next =
    (await repo.updateActiveJob(
      ctx.db,
      row.id,
      row.status === 'queued' ? { status: 'cancelled', cancelRequestedAt: now, finishedAt: now } : { cancelRequestedAt: now },
    )) ?? (await repo.jobById(ctx.db, row.id))!;
  await publishJob(ctx, next);
  return presentJob(next, await modelName(ctx, userId, row.modelId));
}

async function modelName(ctx: AppContext, viewerId: string | null, modelId: string) {
  return loadModelForInference(ctx, viewerId, modelId).then(
    (m) => m.model.name,
    () => 'Model',
  );
}

/** The pending suggestions of one image (a reader of the dataset sees them). */
export async function imageSuggestions(ctx: AppContext, viewerId: string | null, datasetId: string, imageId: string) {
  const dataset = await readableDataset(ctx, viewerId, datasetId);
  const rows = await repo.pendingOfImage(ctx.db, dataset.id, imageId);
  return { imageId, suggestions: rows.map(presentSuggestion) };
}

/** Which pending suggestions an accept or reject is about, and which of their rows. */
async function chosen(ctx: AppContext, dataset: DatasetRow, body: SuggestionActionBody) {
  const rows = await repo.pendingFor(ctx.db, dataset.id, body.all ? { ...(body.split ? { split: body.split } : {}) } : { imageIds: body.imageIds! });
  if (body.indices) {
    const n = rows.reduce((k, s) => k + Math.max(s.labels.length, s.className ? 1 : 0), 0);
    const bad = body.indices.find((i) => i >= n);
    if (bad !== undefined) throw new AppError(422, ErrorCode.Validation, `The image has ${n} suggested rows; row ${bad} does not exist.`, { field: 'indices' });
  }
  return rows;
}

/** Splits the pending rows of one image's suggestions into the chosen and the rest (all chosen without `indices`). */
function pick(rows: SuggestionRow[], indices?: number[]) {
  const want = indices ? new Set(indices) : null;
  let k = 0;
  return rows.map((s) => {
    const take: number[][] = [];
    const keep: { labels: number[][]; conf: number[] } = { labels: [], conf: [] };
    s.labels.forEach((row, i) => {
      if (!want || want.has(k)) take.push(row);
      else {
        keep.labels.push(row);
        keep.conf.push(s.conf[i] ?? 0);
      }
      k += 1;
    });
    const takeClass = s.labels.length === 0 && s.className !== null && (!want || want.has(k++));
    return { s, take, keep, takeClass };
  });
}

/** Label rows per class name of the dataset, with totals (the editor's counts). */
export async function classCounts(ctx: AppContext, dataset: DatasetRow) {
  const names = classNamesOf(dataset);
  const c = await repo.classCounts(ctx.db, dataset.id);
  const counts: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const { cls, n } of c.byClass) counts[names[cls] ?? `class${cls}`] = (counts[names[cls] ?? `class${cls}`] ?? 0) + n;
  for (const { name, n } of c.byName) counts[name] = (counts[name] ?? 0) + n;
  return { counts, images: c.images, unlabelled: c.unlabelled };
}

export async function datasetClassCounts(ctx: AppContext, viewerId: string | null, datasetId: string) {
  return classCounts(ctx, await readableDataset(ctx, viewerId, datasetId));
}

/**
 * Accept: the chosen suggested rows become labels of their images, added to the labels already
 * there (classify: the suggested class), in one transaction for the whole action; each image is
 * one label write. Suggestions left with no rows are marked accepted.
 */
export async function acceptSuggestions(ctx: AppContext, userId: string, datasetId: string, body: SuggestionActionBody) {
  const dataset = await labelableDataset(ctx, userId, datasetId);
  const now = ctx.clock.now();
  let picked: ReturnType<typeof pick> = [];
  const out = await appendImageLabels(
    ctx,
    userId,
    dataset.id,
    async (tx) => {
      picked = pick(await chosen({ ...ctx, db: tx } as AppContext, dataset, body), body.indices);
      const byImage = new Map<string, { imageId: string; labels: number[][]; className: string | null }>();
      for (const p of picked) {
        const a = byImage.get(p.s.imageId) ?? { imageId: p.s.imageId, labels: [], className: null };
        a.labels.push(...p.take);
        if (p.takeClass) a.className = p.s.className;
        byImage.set(p.s.imageId, a);
      }
      return [...byImage.values()];
    },
    (tx) => settle(tx, picked, 'accepted', userId, now),
  );
  const rows = picked.reduce((k, p) => k + p.take.length + (p.takeClass ? 1 : 0), 0);
  const counts = (await classCounts(ctx, out.dataset)).counts;
  await ctx.events.emit('dataset.suggestions.accepted', dataset.userId, { datasetId: dataset.id, actorId: userId, rows, images: out.images, counts });
  return { images: out.images.length, rows, counts };
}

/** Reject: the chosen suggested rows are dropped; labels are not touched. */
export async function rejectSuggestions(ctx: AppContext, userId: string, datasetId: string, body: SuggestionActionBody) {
  const dataset = await labelableDataset(ctx, userId, datasetId);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx } as AppContext;
    const picked = pick(await chosen(txCtx, dataset, body), body.indices);
    const rows = picked.reduce((k, p) => k + p.take.length + (p.takeClass ? 1 : 0), 0);
    await settle(tx, picked, 'rejected', userId, now);
    const imageIds = [...new Set(picked.filter((p) => p.take.length || p.takeClass).map((p) => p.s.imageId))];
    await ctx.events.emit('dataset.suggestions.rejected', dataset.userId, { datasetId: dataset.id, actorId: userId, rows, imageIds });
    return { images: imageIds.length, rows, counts: (await classCounts(txCtx, dataset)).counts };
  });
}

/** Suggestions with nothing left pending are decided; the others keep their remaining rows. */
async function settle(tx: AppContext['db'], picked: ReturnType<typeof pick>, status: 'accepted' | 'rejected', userId: string, at: Date) {
  const done: string[] = [];
  for (const p of picked) {
    if (p.keep.labels.length === 0) done.push(p.s.id);
    else if (p.take.length) await repo.keepRows(tx, p.s.id, p.keep.labels, p.keep.conf);
  }
  await repo.decide(tx, done, status, userId, at);
}

type Cursor = { split: string; name: string; id: string };
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.split, c.name, c.id])).toString('base64url');
function decodeCursor(s: string): Cursor {
  try {
    const [split, name, id] = JSON.parse(Buffer.from(s, 'base64url').toString()) as unknown[];
    if (typeof split === 'string' && typeof name === 'string' && typeof id === 'string') return { split, name, id };
  } catch {
    // answered below
  }
  throw new AppError(400, ErrorCode.Validation, 'The cursor is not one this list gave out.', { field: 'cursor' });
}

/**
 * Review filters of the image list (ADR 0039), keyset-paged in browse order: unlabelled images,
 * images with pending suggestions, images changed since version N (their working revision came
 * after that version's seq, ADR 0038), and images where the model and the labels disagree (the
 * label mistakes of an evaluation of this dataset).
 */
export async function reviewImages(ctx: AppContext, viewerId: string | null, datasetId: string, q: ReviewQuery) {
  const dataset = await readableDataset(ctx, viewerId, datasetId);
  let imageIds: string[] | undefined;
  if (q.filter === 'disagree') {
    if (!q.evaluationId) throw new AppError(422, ErrorCode.Validation, 'Name the evaluation whose mistakes to show (evaluationId).', { field: 'evaluationId' });
    const { row } = await readableEvaluation(ctx, viewerId, q.evaluationId);
    if (row.datasetId !== dataset.id) throw new AppError(422, ErrorCode.Validation, 'That evaluation was made on another dataset.', { field: 'evaluationId' });
    imageIds = await evaluationQueries.mistakeImageIds(ctx.db, row.id);
  }
  let sinceSeq: number | undefined;
  if (q.filter === 'changed-since') {
    if (q.since === undefined) throw new AppError(422, ErrorCode.Validation, 'Name the version the images changed after (since).', { field: 'since' });
    const version = await liveVersionByNumber(ctx, dataset.id, q.since);
    if (!version) throw errors.notFound(`Version ${q.since} of this dataset`);
    sinceSeq = version.seq;
  }
  const rows = await repo.review(ctx.db, dataset.id, {
    filter: q.filter,
    ...(q.split ? { split: q.split } : {}),
    ...(imageIds ? { imageIds } : {}),
    ...(sinceSeq !== undefined ? { sinceSeq } : {}),
    limit: q.limit + 1,
    ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}),
  });
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const link = { access: linkVersionOf(dataset), expiresAt: shortLinkExpiry(ctx.clock.now()) };
  return {
    results: page.map((i) => ({
      id: i.imageId,
      split: i.split,
      name: i.name,
      width: i.width,
      height: i.height,
      className: i.className,
      labels: i.labels,
      thumbUrl: hasThumbnail(i) ? thumbnailUrl(ctx.secret, dataset.id, i.imageId, link) : null,
      url: imageUrl(ctx.secret, dataset.id, i.imageId, link),
      suggestions: i.suggestions,
    })),
    nextCursor: more ? encodeCursor({ ...page.at(-1)!, id: page.at(-1)!.imageId }) : null,
  };
}

/** Status and progress reach the dataset's watchers through labelling.listeners.ts (ADR 0031). */
export async function publishJob(ctx: AppContext, row: PrelabelJobRow) {
  await ctx.events.emit('dataset.prelabel.updated', row.userId, {
    jobId: row.id,
    datasetId: row.datasetId,
    status: row.status,
    done: row.done,
    total: row.total,
  });
}
