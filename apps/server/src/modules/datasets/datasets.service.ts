import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { ErrorCode, type Dataset, type Privacy } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { jobs } from '../../platform/db/schema.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import { signUploadToken } from '../../platform/uploads/upload-token.js';
import { TUS_PATH, type FinishedUpload } from '../../platform/uploads/tus.routes.js';
import { track } from '../analytics/analytics.service.js';
import { canRead } from '../projects/access.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { nextFreeSlug, slugify } from '../projects/slugs.js';
import { usersRepository } from '../users/users.repository.js';
import { assertStorage, storageRemaining } from '../storage/usage.service.js';
import { presentDataset, STABLE_EXPIRY } from './datasets.presenter.js';
import { datasetsRepository, type DatasetRow } from './datasets.repository.js';

export const PROCESS_QUEUE = 'dataset.process';
const ARCHIVE_EXT = /\.(zip|tar|tar\.gz|tgz)$/i;

export async function createDataset(ctx: AppContext, userId: string, input: { name: string; description?: string; task: string; privacy?: Privacy }) {
  const base = slugify(input.name);
  const now = ctx.clock.now();
  const row = await datasetsRepository.insert(ctx.db, {
    id: newId(),
    userId,
    slug: nextFreeSlug(base, await datasetsRepository.slugsLike(ctx.db, userId, base)),
    name: input.name,
    description: input.description ?? '',
    task: input.task,
    privacy: input.privacy ?? 'private',
    status: 'Initiating',
    createdAt: now,
    updatedAt: now,
  });
  await track(ctx, userId, 'create_dataset', { datasetId: row.id, task: row.task });
  await publish(ctx, row, 'dataset.created');
  return row;
}

export async function readableDataset(ctx: AppContext, viewerId: string | null, id: string) {
  const row = await datasetsRepository.byId(ctx.db, id);
  if (!row || !canRead(viewerId, row)) throw errors.notFound('Dataset');
  return row;
}

export async function ownedDataset(ctx: AppContext, userId: string, id: string, opts: { allowDeleted?: boolean } = {}) {
  const row = await datasetsRepository.byId(ctx.db, id);
  if (!row || (row.userId !== userId && !canRead(userId, row))) throw errors.notFound('Dataset');
  if (row.userId !== userId) throw errors.forbidden('Only the owner can change this dataset');
  if (row.deletedAt && !opts.allowDeleted) throw errors.notFound('Dataset');
  return row;
}

export async function presentDatasets(ctx: AppContext, viewerId: string | null, rows: DatasetRow[]): Promise<Dataset[]> {
  const owners = await projectsRepository.owners(ctx.db, [...new Set(rows.map((r) => r.userId))]);
  const out: Dataset[] = [];
  for (const r of rows) {
    const previews = r.processedAt ? (await datasetsRepository.previews(ctx.db, r.id, 5)).filter((i) => i.thumbKey).map((i) => thumbUrl(ctx, i.thumbKey!)) : [];
    let progress: { phase: string; done: number; total: number } | null = null;
    if (r.status === 'Loading' || r.status === 'Retrying') {
      const job = (await ctx.db.select().from(jobs).where(eq(jobs.dedupeKey, `dataset:${r.id}`)).limit(1))[0];
      const p = job?.progress as { phase?: string; done?: number; total?: number } | null | undefined;
      if (p) progress = { phase: p.phase ?? 'queued', done: p.done ?? 0, total: p.total ?? 0 };
    }
    out.push(presentDataset(r, { viewerId, username: owners.get(r.userId) ?? '', previews, secret: ctx.secret, progress }));
  }
  return out;
}

export const thumbUrl = (ctx: AppContext, key: string) => signBlobUrl({ key, expiresAt: STABLE_EXPIRY, secret: ctx.secret, baseUrl: '' });

export async function updateDataset(ctx: AppContext, userId: string, id: string, patch: { name?: string; description?: string; task?: string }) {
  const row = await ownedDataset(ctx, userId, id);
  if (patch.task && patch.task !== row.task && row.processedAt) throw errors.conflict('error/dataset-processed', 'The task of a processed dataset cannot change; create a new dataset');
  const updated = await datasetsRepository.update(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  await track(ctx, userId, 'update_dataset', { datasetId: id });
  await publish(ctx, updated!, 'dataset.updated');
  return updated!;
}

export async function shareDataset(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedDataset(ctx, userId, id);
  const updated = await datasetsRepository.update(ctx.db, id, { privacy, updatedAt: ctx.clock.now() });
  await track(ctx, userId, 'share_dataset', { datasetId: id, privacy });
  await publish(ctx, updated!, 'dataset.updated');
  return updated!;
}

export async function deleteDataset(ctx: AppContext, userId: string, id: string) {
  await ownedDataset(ctx, userId, id);
  const updated = await datasetsRepository.update(ctx.db, id, { deletedAt: ctx.clock.now() });
  await track(ctx, userId, 'delete_dataset', { datasetId: id });
  await publish(ctx, updated!, 'dataset.deleted');
}

export async function restoreDataset(ctx: AppContext, userId: string, id: string) {
  await ownedDataset(ctx, userId, id, { allowDeleted: true });
  const updated = await datasetsRepository.update(ctx.db, id, { deletedAt: null });
  await publish(ctx, updated!, 'dataset.restored');
  return updated!;
}

/**
 * getUploadToken of the spec: checks the path belongs to the caller's dataset and that the bytes
 * fit the storage left; answers a token for the resumable upload and the storage remaining.
 */
export async function uploadToken(ctx: AppContext, user: { id: string; plan: string }, uploadPath: string, bytes: number) {
  const m = /^users\/([^/]+)\/datasets\/([A-Za-z0-9]{20})\/([^/]+)$/.exec(uploadPath);
  if (!m || m[1] !== user.id) throw errors.forbidden('Uploads go to users/{your uid}/datasets/{dataset id}/{file}');
  const [, , datasetId, filename] = m;
  if (!ARCHIVE_EXT.test(filename!)) throw new AppError(400, ErrorCode.NoArchiveProvided, 'Choose a .zip, .tar or .tar.gz archive of the dataset');
  await ownedDataset(ctx, user.id, datasetId!);
  const remaining = await assertStorage(ctx, user, bytes);
  const token = signUploadToken({ uid: user.id, path: uploadPath, bytes }, ctx.secret, ctx.clock.now());
  const row = await datasetsRepository.update(ctx.db, datasetId!, { status: 'Uploading', updatedAt: ctx.clock.now() });
  await publish(ctx, row!, 'dataset.updated');
  return { token, storageRemaining: remaining, uploadUrl: TUS_PATH };
}

/** Last byte of an archive arrived: it goes to the blob store at its path, then waits for process. */
export async function finishUpload(ctx: AppContext, upload: FinishedUpload) {
  const datasetId = /^users\/[^/]+\/datasets\/([^/]+)\//.exec(upload.path)?.[1];
  const row = datasetId ? await datasetsRepository.byId(ctx.db, datasetId) : null;
  if (!row || row.userId !== upload.uid) throw errors.notFound('Dataset');
  const user = { id: upload.uid, plan: (await usersRepository.byId(ctx.db, upload.uid))?.plan ?? 'free' };
  // The archive replaces any previous one, so only the difference has to fit.
  const { remaining } = await storageRemaining(ctx, user);
  if (upload.bytes - row.bytes > remaining) throw errors.insufficientStorage(remaining, upload.bytes);
  await ctx.blobs.put(upload.path, fs.createReadStream(upload.file), { contentLength: upload.bytes });
  if (row.storageKey && row.storageKey !== upload.path) await ctx.blobs.delete(row.storageKey).catch(() => undefined);
  const updated = await datasetsRepository.update(ctx.db, row.id, {
    storageKey: upload.path,
    filename: upload.filename,
    bytes: upload.bytes,
    uploadedAt: ctx.clock.now(),
    uploadJob: upload.id,
    updatedAt: ctx.clock.now(),
  });
  await publish(ctx, updated!, 'dataset.updated');
}

/** POST /v1/datasets/{id}/process (spec §7): status Loading (or Retrying after a failure), runs as a job. */
export async function requestProcessing(ctx: AppContext, userId: string, id: string) {
  const row = await ownedDataset(ctx, userId, id);
  if (!row.storageKey) throw new AppError(400, ErrorCode.NoArchiveProvided, 'Upload the dataset archive first');
  const retry = row.failedAt !== null || row.status === 'Failed';
  const updated = await datasetsRepository.update(ctx.db, id, {
    status: retry ? 'Retrying' : 'Loading',
    failedAt: null,
    error: null,
    updatedAt: ctx.clock.now(),
  });
  await ctx.jobs.enqueue(PROCESS_QUEUE, { datasetId: id }, { dedupeKey: `dataset:${id}`, maxAttempts: 3 });
  await publish(ctx, updated!, 'dataset.updated');
  return updated!;
}

export async function archiveDownloadUrl(ctx: AppContext, row: DatasetRow, baseUrl: string) {
  if (!row.storageKey) throw errors.notFound('Dataset archive');
  return signBlobUrl({ key: row.storageKey, expiresAt: new Date(ctx.clock.now().getTime() + 3600_000), filename: row.filename ?? `${row.slug}.zip`, secret: ctx.secret, baseUrl });
}

export function reportFileName(row: DatasetRow) {
  return `${path.parse(row.filename ?? row.slug).name}-report.txt`;
}

export async function publish(ctx: AppContext, row: DatasetRow, event: string) {
  const data = { id: row.id, status: row.status };
  await ctx.bus.publish(`dataset:${row.id}`, event, data);
  await ctx.bus.publish(`user:${row.userId}:datasets`, event, data);
}
