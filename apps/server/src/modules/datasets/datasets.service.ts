import path from 'node:path';
import { ErrorCode, isId, type Action, type Dataset, type Privacy } from '@sightline/contracts';
import { SPLITS, type Split } from '@sightline/contracts/dataset-layout';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import { signUploadToken } from '../../platform/uploads/upload-token.js';
import { storedUploadOffset, TUS_PATH, type FinishedUpload } from '../../platform/uploads/tus.routes.js';
import { uploadQueries } from '../../platform/uploads/index.js';
import { abilitiesFor, allows, itemLinkVersion, linkGrants, linkVersionOf, shortBlobUrl, usersAllowed, viewerFor } from '../access/index.js';
import { ownerNames } from '../users/users.service.js';
import { nextFreeSlug, slugify } from '../projects/slugs.js';
import { userQueries } from '../users/index.js';
import { assertStorage, storageRemaining } from '../storage/usage.service.js';
import { imageUrl, thumbnailUrl, verifyImageSignature } from './datasets.image-urls.js';
import { hasThumbnail, thumbnailOf } from './datasets.thumbnails.js';
import { datasetItem, datasetsPolicy } from './datasets.policy.js';
import { linkedDataset } from './datasets.link-facts.js';
import { presentDataset } from './datasets.presenter.js';
import { datasetsRepository, type DatasetRow } from './datasets.repository.js';
import { dropBlobs, imageByteSize, openImage, planArchiveRelease, releaseArchive } from './datasets.image-source.js';

export const PROCESS_QUEUE = 'dataset.process';
const ARCHIVE_EXT = /\.(zip|tar|tar\.gz|tgz)$/i;

export async function createDataset(
  ctx: AppContext,
  userId: string,
  input: {
    name: string;
    description?: string;
    task: string;
    privacy?: Privacy;
    provider?: 'hub' | 'roboflow';
    roboflow?: { type: string; totalVersions: number };
  },
) {
  const base = slugify(input.name);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await datasetsRepository.lockOwnerForCreate(tx, userId); // concurrent creations never pick the same slug
    return datasetsRepository.insert(tx, {
      id: newId(),
      userId,
      slug: nextFreeSlug(base, await datasetsRepository.slugsLike(tx, userId, base)),
      name: input.name,
      description: input.description ?? '',
      task: input.task,
      privacy: input.privacy ?? 'private',
      provider: input.provider ?? 'hub',
      roboflow: input.roboflow ?? null,
      status: 'Initiating',
      createdAt: now,
      updatedAt: now,
    });
  });
  await ctx.events.emit('dataset.created', row.userId, { dataset: datasetState(row), actorId: userId, task: row.task });
  return row;
}

export async function readableDataset(ctx: AppContext, viewerId: string | null, id: string) {
  return datasetsPolicy.read(ctx, viewerId, await datasetsRepository.byId(ctx.db, id));
}

/** Of these users, those who may read the dataset (its row read once: the realtime re-check of `dataset:<id>`, ADR 0042). */
export async function datasetReaders(ctx: AppContext, userIds: string[], id: string) {
  const row = await datasetsRepository.byId(ctx.db, id);
  return usersAllowed(ctx, userIds, row ? datasetItem(row) : null, 'read');
}

/** Of these datasets, the live ones the caller may read, in one query for the rows and one for team roles. */
export async function readableDatasets(ctx: AppContext, viewerId: string | null, ids: string[]) {
  const rows = (await datasetsRepository.byIds(ctx.db, [...new Set(ids)])).filter((r) => !r.deletedAt);
  const viewer = await viewerFor(ctx, viewerId, rows.map(datasetItem));
  return rows.filter((r) => allows(viewer, datasetItem(r), 'read'));
}

/** A dataset the caller may change with this action: 404 if not readable (or in the trash), 403 if not allowed. */
export async function ownedDataset(ctx: AppContext, userId: string, id: string, opts: { allowDeleted?: boolean; action?: Action } = {}) {
  return datasetsPolicy.act(ctx, userId, await datasetsRepository.byId(ctx.db, id), opts.action ?? 'update', opts);
}

export async function presentDatasets(ctx: AppContext, viewerId: string | null, rows: DatasetRow[]): Promise<Dataset[]> {
  const owners = await ownerNames(
    ctx,
    rows.map((r) => r.userId),
  );
  const abilities = await abilitiesFor(ctx, viewerId, rows.map(datasetItem));
  // One query for every dataset's previews and one for the jobs of those loading (no query per item).
  const previewRows = await datasetsRepository.previewsOf(
    ctx.db,
    rows.filter((r) => r.processedAt).map((r) => r.id),
    5,
  );
  const loading = rows.filter((r) => r.status === 'Loading' || r.status === 'Retrying');
  const jobs = new Map((loading.length ? await ctx.jobs.byDedupeKeys(loading.map((r) => `dataset:${r.id}`)) : []).map((j) => [j.dedupeKey, j]));
  const out: Dataset[] = [];
  for (const [i, r] of rows.entries()) {
    const link = { access: linkVersionOf(r), expiresAt: shortLinkExpiry(ctx.clock.now()) };
    const previews = r.processedAt
      ? previewRows.filter((p) => p.datasetId === r.id && hasThumbnail(p)).map((p) => thumbnailUrl(ctx.secret, r.id, p.id, link))
      : [];
    let progress: { phase: string; done: number; total: number } | null = null;
    if (r.status === 'Loading' || r.status === 'Retrying') {
      const job = jobs.get(`dataset:${r.id}`);
      const p = job?.progress as { phase?: string; done?: number; total?: number } | null | undefined;
      if (p) progress = { phase: p.phase ?? 'queued', done: p.done ?? 0, total: p.total ?? 0 };
    }
    out.push(
      presentDataset(r, {
        abilities: abilities[i]!,
        username: owners.get(r.userId) ?? '',
        previews,
        imageUrl: r.imageKey ? thumbUrl(ctx, r, r.imageKey) : null,
        progress,
      }),
    );
  }
  return out;
}

/** A blob of the dataset (its cover image) for the web app: a short-lived link bound to the dataset's access version (ADR 0014). */
export const thumbUrl = (ctx: AppContext, row: DatasetRow, key: string) => shortBlobUrl(ctx, key, linkVersionOf(row));

/** One dataset as the API answers it (the caller already passed its access check). */
export async function presentDatasetById(ctx: AppContext, viewerId: string | null, id: string) {
  return (await presentDatasets(ctx, viewerId, [(await datasetsRepository.byId(ctx.db, id))!]))[0]!;
}

/** A hub-sdk page: the owner's (and their teams') datasets, or everyone's public ones, filtered. */
export async function listDatasets(
  ctx: AppContext,
  viewerId: string | null,
  q: Omit<Parameters<typeof datasetsRepository.list>[1], 'after'> & { afterId?: string },
) {
  const after = q.afterId ? await datasetsRepository.byId(ctx.db, q.afterId) : null;
  const { rows, total } = await datasetsRepository.list(ctx.db, { ...q, after });
  return { results: await presentDatasets(ctx, viewerId, rows), total, lastRecordId: rows.at(-1)?.id ?? null };
}

/**
 * The image browser: a page of a readable dataset's working state (ADR 0037), keyset-paged by an opaque
 * cursor (ADR 0042: any page costs what the first does). The total is the dataset's stored statistics
 * (kept by processing and by every edit in its transaction), so no page counts the images; a dataset
 * without them yet (not processed) is counted on its first page only, and later pages answer null.
 */
export async function listImages(ctx: AppContext, viewerId: string | null, id: string, q: { split?: string; offset?: number; limit: number; cursor?: string }) {
  const row = await readableDataset(ctx, viewerId, id);
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  // One row past the page says whether another follows (no empty last page after a full one).
  const read = await datasetsRepository.images(ctx.db, row.id, { split: q.split, offset: q.offset, limit: q.limit + 1, after });
  const rows = read.slice(0, q.limit);
  const stored = storedImageCount(row, q.split);
  const total = stored ?? (after || q.offset ? null : await datasetsRepository.countImages(ctx.db, row.id, q.split));
  const link = { access: linkVersionOf(row), expiresAt: shortLinkExpiry(ctx.clock.now()) };
  const last = rows.at(-1);
  return {
    results: rows.map((i) => ({
      id: i.imageId,
      split: i.split,
      name: i.name,
      width: i.width,
      height: i.height,
      className: i.className,
      labels: i.labels,
      labelRevision: i.labelRev,
      sha256: i.sha256,
      thumbUrl: hasThumbnail(i) ? thumbnailUrl(ctx.secret, i.datasetId, i.imageId, link) : null,
      url: imageUrl(ctx.secret, i.datasetId, i.imageId, link),
    })),
    total,
    nextCursor: last && read.length > q.limit ? encodeCursor({ split: last.split, name: last.name, imageId: last.imageId }) : null,
  };
}

/** Images of the working state (of one split) by the dataset's stored statistics; null before processing made them. */
function storedImageCount(row: DatasetRow, split?: string): number | null {
  const hub = row.status === 'Ready' ? row.stats?.hub : null;
  if (!hub) return null;
  const count = (s: Split) => hub[s]?.image_stats.total ?? 0;
  return split ? count(split as Split) : SPLITS.reduce((n, s) => n + count(s), 0);
}

type Cursor = { split: string; name: string; imageId: string };
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.split, c.name, c.imageId])).toString('base64url');
function decodeCursor(raw: string): Cursor {
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString()) as unknown;
    if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'string')) return { split: v[0], name: v[1], imageId: v[2] };
  } catch {
    // falls through to the 400 below
  }
  throw errors.validation('cursor: not a cursor this API gave out');
}

/**
 * An original image behind its stable signed URL: where its bytes sit in the uploaded archive
 * (no second copy), and a reader for them (inflated when the entry is deflated).
 */
export async function rawImage(ctx: AppContext, datasetId: string, imageId: string, q: SignedImageQuery) {
  const { row, image } = await signedImage(ctx, datasetId, imageId, q);
  return { name: image.name, bytes: imageByteSize(image), open: () => openImage(ctx, row, image) };
}

/** An image's 256 px preview behind the same signed link as its original, made on first view and kept. */
export async function imageThumbnail(ctx: AppContext, datasetId: string, imageId: string, q: SignedImageQuery) {
  const row = await signedDataset(ctx, datasetId, imageId, q);
  // The image row is read only when the preview is not already made or in the making (ADR 0043).
  const thumb = await thumbnailOf(ctx, row, imageId, async () => {
    const image = await datasetsRepository.imageOfAnyRevision(ctx.db, datasetId, imageId);
    if (!image) throw errors.notFound('Image');
    return image;
  });
  if (!thumb) throw new AppError(404, ErrorCode.NotFound, 'This image has no preview: its format cannot be shown here');
  return thumb;
}

type SignedImageQuery = { sig: string; exp?: string; h?: string };

/** The image a signed image link names, checked against the dataset's access state now: a link from before a privacy change or the trash fails. */
async function signedImage(ctx: AppContext, datasetId: string, imageId: string, q: SignedImageQuery) {
  const row = await signedDataset(ctx, datasetId, imageId, q);
  const image = await datasetsRepository.imageOfAnyRevision(ctx.db, datasetId, imageId);
  if (!image) throw errors.notFound('Image');
  return { row, image };
}

/**
 * The dataset of a signed image link, checked as `signedImage` checks it, without reading the image's row.
 * Its facts come from a per-instance cache that changes of the dataset evict (datasets.link-facts.ts, ADR 0043).
 */
async function signedDataset(ctx: AppContext, datasetId: string, imageId: string, q: SignedImageQuery) {
  const exp = q.exp && /^\d{1,15}$/.test(q.exp) ? Number(q.exp) : NaN;
  const row = await linkedDataset(ctx, datasetId);
  if (!row) throw errors.notFound('Image');
  // The signed access: the dataset's version now and the link's holder (`h`, ADR 0023), who must still read the dataset.
  const version = itemLinkVersion(row);
  const access = q.h ? `${version}.${q.h}` : version;
  if (
    !Number.isSafeInteger(exp) ||
    !verifyImageSignature(ctx.secret, datasetId, imageId, access, exp, q.sig) ||
    !(await linkGrants(ctx, datasetItem(row), version, access))
  ) {
    throw new AppError(403, ErrorCode.Forbidden, 'This image link is invalid or no longer grants access');
  }
  if (exp * 1000 <= ctx.clock.now().getTime()) throw new AppError(410, ErrorCode.Expired, 'This image link has expired');
  if (!row.storageKey || row.deletedAt) throw errors.notFound('Image');
  return row;
}

export async function updateDataset(ctx: AppContext, userId: string, id: string, patch: { name?: string; description?: string; task?: string }) {
  const row = await ownedDataset(ctx, userId, id);
  if (patch.task && patch.task !== row.task && row.processedAt)
    throw errors.conflict(ErrorCode.DatasetProcessed, 'The task of a processed dataset cannot change; create a new dataset');
  const updated = await datasetsRepository.update(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  await ctx.events.emit('dataset.updated', updated!.userId, { dataset: datasetState(updated!), actorId: userId });
  return updated!;
}

export async function shareDataset(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedDataset(ctx, userId, id, { action: 'share' });
  const updated = await datasetsRepository.update(ctx.db, id, { privacy, updatedAt: ctx.clock.now() });
  await ctx.events.emit('dataset.shared', updated!.userId, { dataset: datasetState(updated!), actorId: userId, privacy });
  return updated!;
}

/**
 * Archiving (spec §4 "Archiving uses dates.archived"): the dataset leaves the default lists and Home
 * but keeps working (links, training); the same right as deleting puts it away (docs/spec-mapping.md).
 */
export async function setDatasetArchived(ctx: AppContext, userId: string, id: string, archived: boolean) {
  const row = await ownedDataset(ctx, userId, id, { action: 'delete' });
  if ((row.archivedAt !== null) === archived) return row;
  const updated = await datasetsRepository.update(ctx.db, id, { archivedAt: archived ? ctx.clock.now() : null, updatedAt: ctx.clock.now() });
  await ctx.events.emit('dataset.archived', updated!.userId, { dataset: datasetState(updated!), actorId: userId, archived });
  return updated!;
}

export async function deleteDataset(ctx: AppContext, userId: string, id: string) {
  await ownedDataset(ctx, userId, id, { action: 'delete' });
  const updated = await datasetsRepository.update(ctx.db, id, { deletedAt: ctx.clock.now() });
  await ctx.events.emit('dataset.deleted', updated!.userId, { dataset: datasetState(updated!), actorId: userId });
}

export async function restoreDataset(ctx: AppContext, userId: string, id: string) {
  await ownedDataset(ctx, userId, id, { allowDeleted: true, action: 'restore' });
  const updated = await datasetsRepository.update(ctx.db, id, { deletedAt: null });
  await ctx.events.emit('dataset.restored', updated!.userId, { dataset: datasetState(updated!), actorId: userId });
  return updated!;
}

/**
 * getUploadToken of the spec: checks the path belongs to the caller's dataset and that the bytes
 * fit the storage left; answers a token for the resumable upload and the storage remaining.
 */
export async function uploadToken(ctx: AppContext, user: { id: string; plan: string }, uploadPath: string, bytes: number) {
  const target = blobKeys.parseDatasetFile(uploadPath);
  if (!target || !isId(target.datasetId) || target.uid !== user.id) throw errors.forbidden('Uploads go to users/{your uid}/datasets/{dataset id}/{file}');
  const { datasetId, file: filename } = target;
  if (!ARCHIVE_EXT.test(filename)) throw new AppError(400, ErrorCode.NoArchiveProvided, 'Choose a .zip, .tar or .tar.gz archive of the dataset');
  const dataset = await ownedDataset(ctx, user.id, datasetId);
  const remaining = await assertStorage(ctx, user, bytes);
  const token = signUploadToken({ uid: user.id, path: uploadPath, bytes }, ctx.secret, ctx.clock.now());
  // Only a new dataset becomes Uploading: a token alone (maybe never used) must not hide a Ready or
  // Failed dataset's state for good; a finished upload followed by /process moves those on.
  if (dataset.status === 'Initiating') {
    const row = await datasetsRepository.update(ctx.db, datasetId, { status: 'Uploading', updatedAt: ctx.clock.now() });
    await ctx.events.emit('dataset.uploadStarted', row!.userId, { dataset: datasetState(row!), actorId: user.id });
  }
  return { token, storageRemaining: remaining, uploadUrl: TUS_PATH };
}

/** Last byte of an archive arrived: it goes to the blob store at its path, then waits for process. */
export async function finishUpload(ctx: AppContext, upload: FinishedUpload) {
  const datasetId = blobKeys.datasetIdOf(upload.path);
  const row = await datasetsPolicy.hidden(ctx, upload.uid, datasetId ? await datasetsRepository.byId(ctx.db, datasetId) : null, 'update');
  const user = { id: upload.uid, plan: (await userQueries.byId(ctx.db, upload.uid))?.plan ?? 'free' };
  // The archive replaces any previous one, so only the difference has to fit, plus the images the
  // revisions still read from the old archive, which move to content-addressed blobs first (ADR 0044).
  const release = await planArchiveRelease(ctx, row);
  const { remaining } = await storageRemaining(ctx, user, upload.id); // besides the upload's own reservation
  if (upload.bytes - row.bytes + release.freshBytes > remaining) throw errors.insufficientStorage(remaining, upload.bytes + release.freshBytes);
  await releaseArchive(ctx, row, release.rows);
  await ctx.blobs.put(upload.path, upload.open(), { contentLength: upload.bytes });
  if (row.storageKey && row.storageKey !== upload.path) await ctx.blobs.delete(row.storageKey).catch(() => undefined);
  const updated = await datasetsRepository.update(ctx.db, row.id, {
    storageKey: upload.path,
    filename: upload.filename,
    bytes: upload.bytes,
    uploadedAt: ctx.clock.now(),
    uploadJob: upload.id,
    updatedAt: ctx.clock.now(),
  });
  await ctx.events.emit('dataset.uploaded', updated!.userId, { dataset: datasetState(updated!), actorId: upload.uid });
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
  await ctx.events.emit('dataset.processingRequested', updated!.userId, { dataset: datasetState(updated!), actorId: userId, retry });
  return updated!;
}

/** /active-jobs: the user's uploads in flight and datasets being processed. */
export async function activeJobs(ctx: AppContext, userId: string) {
  const all = await uploadQueries.recentOf(ctx.db, userId, 50);
  // A partial upload whose dataset got its archive another way (a new upload of the file, from another
  // browser) or went to the trash waits for nothing: it is not listed.
  const waiting = new Set(
    await datasetsRepository.awaitingArchive(ctx.db, [...new Set(all.filter((u) => u.status === 'uploading' && u.datasetId).map((u) => u.datasetId!))]),
  );
  const ups = all.filter((u) => u.status !== 'uploading' || !u.datasetId || waiting.has(u.datasetId));
  // A request cut off (a tab closed mid-upload) may have left more bytes in the store than the database
  // heard of: the store's offset is what a resume continues from, and what the dataset page shows.
  await Promise.all(
    ups.map(async (u) => {
      if (u.status !== 'uploading') return;
      const stored = await storedUploadOffset(ctx, u.id);
      if (stored !== null && stored > u.offset) {
        u.offset = stored;
        await uploadQueries.raiseOffset(ctx.db, u.id, stored, u.updatedAt ?? ctx.clock.now()).catch(() => undefined);
      }
    }),
  );
  const mine = await datasetsRepository.processingOf(ctx.db, userId);
  const jobRows = await ctx.jobs.byDedupeKeys(mine.map((d) => `dataset:${d.id}`));
  return {
    uploads: ups.map((u) => ({
      id: u.id,
      datasetId: u.datasetId,
      filename: u.filename,
      bytes: u.bytes,
      offset: u.offset,
      status: u.status,
      error: u.error,
      created: u.createdAt.toISOString(),
      updated: (u.updatedAt ?? u.createdAt).toISOString(),
    })),
    processing: mine.map((d) => {
      const j = jobRows.find((x) => x.dedupeKey === `dataset:${d.id}`);
      return { datasetId: d.id, name: d.name, status: d.status, progress: j?.progress ?? null, attempts: j?.attempts ?? 0, lastError: j?.lastError ?? null };
    }),
  };
}

/**
 * Permanent removal: the row, every blob under the dataset's prefix, and one reference per image row
 * to the content-addressed blobs (ADR 0037), whose bytes go when no row of any dataset points at them.
 */
export async function purgeDataset(ctx: AppContext, row: DatasetRow) {
  await ctx.blobs.deletePrefix(blobKeys.datasetPrefix(row.userId, row.id));
  const gone = await ctx.db.transaction(async (tx) => {
    const keys = await datasetsRepository.clearImages(tx, row.id);
    await datasetsRepository.remove(tx, row.id);
    return keys;
  });
  await dropBlobs(ctx, gone);
}

export async function archiveDownloadUrl(ctx: AppContext, row: DatasetRow, baseUrl: string) {
  if (!row.storageKey) throw errors.notFound('Dataset archive');
  return signBlobUrl({
    key: row.storageKey,
    expiresAt: shortLinkExpiry(ctx.clock.now()),
    filename: row.filename ?? `${row.slug}.zip`,
    secret: ctx.secret,
    baseUrl,
    access: linkVersionOf(row),
  });
}

export function reportFileName(row: DatasetRow) {
  return `${path.parse(row.filename ?? row.slug).name}-report.txt`;
}

/** What a dataset's realtime messages carry. */
export const datasetState = (row: DatasetRow) => ({ id: row.id, status: row.status });
