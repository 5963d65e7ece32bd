import {
  ErrorCode,
  type DatasetDiff,
  type DiffImage,
  type DatasetVersion,
  type DatasetVersionDetail,
  type DatasetVersionRef,
  type WebhookDataset,
} from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { accessItem, allows, linkVersionOf, viewerFor } from '../access/index.js';
import { datasetQueries, type DatasetRow } from '../datasets/index.js';
import { datasetsPolicy } from '../datasets/datasets.policy.js';
import { openImage } from '../datasets/datasets.image-source.js';
import { imageUrl, thumbnailUrl } from '../datasets/datasets.image-urls.js';
import { hasThumbnail } from '../datasets/datasets.thumbnails.js';
import { diffStates, histogramOf } from './dataset-versions.diff.js';
import { presentVersion } from './dataset-versions.presenter.js';
import { datasetVersionsRepository as repo, type VersionImageRow, type VersionRow } from './dataset-versions.repository.js';
import { versionZip } from './dataset-versions.zip.js';

/**
 * Dataset versions (ADR 0038). A version is the dataset's edit sequence number when it was saved,
 * with the class list and split counts of that moment: saving copies no image row and reads no image
 * byte (the revisions a version sees are kept by the edits, ADR 0037). The working state stays
 * editable; a version never changes. Deleted versions go to the trash and come back from it.
 */

const NAME = 'Dataset version';

const webhookDataset = (d: DatasetRow): WebhookDataset => ({ id: d.id, name: d.name, slug: d.slug, task: d.task, status: d.status });
const versionRef = (v: VersionRow): DatasetVersionRef => ({ id: v.id, number: v.number, note: v.note, images: v.images });

function assertProcessed(dataset: DatasetRow) {
  if (!dataset.processedAt) throw errors.conflict(ErrorCode.DatasetNotReady, 'This dataset is still processing; save a version once it is Ready');
}

/**
 * Freezes the working state as the next version, in one transaction that locks the dataset row like
 * every edit does (ADR 0037), so the version's seq, class list and counts are one state: one statement
 * locks the row and raises `frozen_seq`, one inserts the version with the next number. The split
 * counts are the dataset's statistics, which every edit and processing rewrite under the same lock,
 * so they are the working state's (a dataset not Ready counts its working rows instead). O(1) in the
 * dataset's size.
 */
async function saveAt(ctx: AppContext, dataset: DatasetRow, actorId: string, note: string, auto: boolean) {
  return ctx.db.transaction(async (tx) => {
    const locked = await repo.lockAndFreeze(tx, dataset.id);
    if (!locked) throw errors.notFound('Dataset');
    const splits = (locked.status === 'Ready' && splitsOf(locked.stats)) || (await repo.splitCountsAt(tx, dataset.id, null));
    const classes = locked.classes ?? (dataset.stats?.summary?.classes as string[] | undefined) ?? [];
    const { version: row, username } = await repo.insertNext(tx, {
      id: `dv_${newId()}`,
      datasetId: dataset.id,
      seq: locked.seq,
      note,
      classes,
      stats: { splits },
      images: splits.train + splits.val + splits.test,
      createdBy: actorId,
      createdAt: ctx.clock.now(),
    });
    await ctx.events.emit('dataset.version.saved', dataset.userId, { dataset: webhookDataset(dataset), version: versionRef(row), actorId, auto });
    return { row, username };
  });
}

/** The split counts the dataset's statistics hold, when they hold all three. */
function splitsOf(stats: { summary?: Record<string, unknown> } | null) {
  const s = stats?.summary;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
  const train = n(s?.train);
  const val = n(s?.val);
  const test = n(s?.test);
  return train === null || val === null || test === null ? null : { train, val, test };
}

/** "Save version": needs `update` on the dataset (team members included, the matrix decides). */
export async function saveVersion(ctx: AppContext, userId: string, datasetId: string, note: string | undefined): Promise<DatasetVersion> {
  const dataset = await datasetsPolicy.act(ctx, userId, await datasetQueries.byId(ctx.db, datasetId), 'update');
  assertProcessed(dataset);
  const { row, username } = await saveAt(ctx, dataset, userId, (note ?? '').trim(), false);
  // A version just saved has no model trained on it yet.
  return presentVersion(row, { username, models: 0 });
}

/**
 * A version saved by the system: version 1 when processing reaches Ready, a Roboflow re-sync (its
 * dataset is processed again), a run on the working state. Skipped when the newest version already
 * holds the working state (no edit since), unless `always`.
 */
export async function saveAutoVersion(
  ctx: AppContext,
  dataset: DatasetRow,
  note: string | ((hasVersions: boolean) => string),
  opts: { always?: boolean } = {},
): Promise<VersionRow> {
  const latest = await repo.latest(ctx.db, dataset.id);
  const state = await repo.datasetSeq(ctx.db, dataset.id);
  if (latest && !opts.always && state && latest.seq === state.seq) return latest;
  return (await saveAt(ctx, dataset, dataset.userId, typeof note === 'string' ? note : note(Boolean(latest)), true)).row;
}

async function present(ctx: AppContext, rows: VersionRow[]): Promise<DatasetVersion[]> {
  const names = await repo.usernames(ctx.db, [...new Set(rows.map((r) => r.createdBy).filter((v): v is string => Boolean(v)))]);
  const counts = await repo.modelCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentVersion(r, { username: r.createdBy ? (names.get(r.createdBy) ?? null) : null, models: counts.get(r.id) ?? 0 }));
}

export async function listVersions(ctx: AppContext, viewerId: string | null, datasetId: string): Promise<DatasetVersion[]> {
  const dataset = await datasetsPolicy.read(ctx, viewerId, await datasetQueries.byId(ctx.db, datasetId));
  return present(ctx, await repo.list(ctx.db, dataset.id));
}

async function readableVersion(ctx: AppContext, viewerId: string | null, datasetId: string, number: number, action: 'read' | 'download' = 'read') {
  const row = await datasetQueries.byId(ctx.db, datasetId);
  const dataset = action === 'read' ? await datasetsPolicy.read(ctx, viewerId, row) : await datasetsPolicy.act(ctx, viewerId ?? '', row, action);
  const version = await repo.byNumber(ctx.db, dataset.id, number);
  if (!version || version.deletedAt) throw errors.notFound(NAME);
  return { dataset, version };
}

/** A version with the models trained on it that the caller may read, and its class histogram (labels only). */
export async function getVersion(ctx: AppContext, viewerId: string | null, datasetId: string, number: number): Promise<DatasetVersionDetail> {
  const { dataset, version } = await readableVersion(ctx, viewerId, datasetId, number);
  const models = await repo.modelsOf(ctx.db, version.id);
  const items = models.map((m) => ({ m, item: accessItem('model', m) }));
  const viewer = await viewerFor(
    ctx,
    viewerId,
    items.map((i) => i.item),
  );
  const modelList = items.filter((i) => allows(viewer, i.item, 'read')).map(({ m }) => ({ id: m.id, name: m.name, projectId: m.projectId }));
  const histogram = histogramOf(version.classes, await repo.histogramAt(ctx.db, dataset.id, version.seq));
  const [base] = await present(ctx, [version]);
  return { ...base!, modelList, histogram };
}

/** The diff of two versions, or of a version and the working state (`to: 'working'`): hashes and labels only, never image bytes. */
export async function diffVersions(ctx: AppContext, viewerId: string | null, datasetId: string, from: number, to: number | 'working'): Promise<DatasetDiff> {
  const a = await readableVersion(ctx, viewerId, datasetId, from);
  const dataset = a.dataset;
  let toSeq: number | null = null;
  let toClasses: string[];
  if (to === 'working') {
    const state = await repo.datasetSeq(ctx.db, dataset.id);
    toClasses = state?.classes ?? (dataset.stats?.summary?.classes as string[] | undefined) ?? [];
  } else {
    const b = await readableVersion(ctx, viewerId, datasetId, to);
    toSeq = b.version.seq;
    toClasses = b.version.classes;
  }
  const changed = await repo.changedBetween(ctx.db, dataset.id, a.version.seq, toSeq);
  const parts = diffStates({ rows: changed.from, classes: a.version.classes }, { rows: changed.to, classes: toClasses });
  const [hFrom, hTo] = await Promise.all([repo.histogramAt(ctx.db, dataset.id, a.version.seq), repo.histogramAt(ctx.db, dataset.id, toSeq)]);
  // Each listed image gets the signed links the image browser gives (same signature, same expiry): the raw and
  // thumbnail routes resolve an image's newest revision, so an image removed from the working state still shows.
  const link = { access: linkVersionOf(dataset), expiresAt: shortLinkExpiry(ctx.clock.now()) };
  const formats = new Map([...changed.from, ...changed.to].map((r) => [r.imageId, r.format]));
  const linked = (image: DiffImage): DiffImage => ({
    ...image,
    thumbUrl: hasThumbnail({ format: formats.get(image.id) ?? null }) ? thumbnailUrl(ctx.secret, dataset.id, image.id, link) : null,
    url: imageUrl(ctx.secret, dataset.id, image.id, link),
  });
  return {
    from,
    to,
    ...parts,
    added: parts.added.map(linked),
    removed: parts.removed.map(linked),
    moved: parts.moved.map((m) => ({ ...m, image: linked(m.image) })),
    labelsChanged: parts.labelsChanged.map((c) => ({ ...c, image: linked(c.image) })),
    histogram: { from: histogramOf(a.version.classes, hFrom), to: histogramOf(toClasses, hTo) },
  };
}

/**
 * `<slug>-vN`: the zip's one top folder and its file name. A client extracts a dataset zip once per
 * folder name and reuses the folder after, so each version needs its own (versions never change).
 */
export const versionRoot = (dataset: Pick<DatasetRow, 'slug'>, number: number) => `${dataset.slug}-v${number}`;
export const versionZipName = (dataset: Pick<DatasetRow, 'slug'>, number: number) => `${versionRoot(dataset, number)}.zip`;

/** The version as a YOLO zip (same content → same bytes), streamed: image bytes are read as the zip reaches them. */
export function zipOfVersion(ctx: AppContext, dataset: DatasetRow, version: VersionRow, images: VersionImageRow[]) {
  // The zip's length is known up front when every image's is (archive entries carry theirs).
  const sized = images.map((i) => ({ ...i, bytes: i.bytes ?? (i.blobKey ? null : i.source.uncompressedSize) }));
  const { stream, size } = versionZip(versionRoot(dataset, version.number), dataset.task, version.classes, sized, (img) =>
    openImage(ctx, dataset, img as VersionImageRow),
  );
  return { stream, size, filename: versionZipName(dataset, version.number) };
}

/** GET …/versions/:number/download: `download` on the dataset (readers of a public dataset included). */
export async function downloadVersion(ctx: AppContext, viewerId: string | null, datasetId: string, number: number) {
  const row = await datasetQueries.byId(ctx.db, datasetId);
  const dataset = await datasetsPolicy.read(ctx, viewerId, row);
  const viewer = await viewerFor(ctx, viewerId, [accessItem('dataset', dataset)]);
  if (!allows(viewer, accessItem('dataset', dataset), 'download')) throw errors.forbidden('You may not download this dataset');
  const version = await repo.byNumber(ctx.db, dataset.id, number);
  if (!version || version.deletedAt) throw errors.notFound(NAME);
  return zipOfVersion(ctx, dataset, version, await repo.imagesAt(ctx.db, dataset.id, version.seq));
}

/** To the trash: `delete` on the dataset. Its revisions stay until the version is purged (it may come back). */
export async function deleteVersion(ctx: AppContext, userId: string, datasetId: string, number: number) {
  const dataset = await datasetsPolicy.act(ctx, userId, await datasetQueries.byId(ctx.db, datasetId), 'delete');
  const version = await repo.byNumber(ctx.db, dataset.id, number);
  if (!version || version.deletedAt) throw errors.notFound(NAME);
  await ctx.db.transaction(async (tx) => {
    await repo.update(tx, version.id, { deletedAt: ctx.clock.now() });
    await ctx.events.emit('dataset.version.deleted', dataset.userId, { dataset: webhookDataset(dataset), version: versionRef(version), actorId: userId });
  });
}

/** Back from the trash (the trash module's restore): `restore` on the dataset; others learn nothing (404). */
export async function restoreVersion(ctx: AppContext, userId: string, versionId: string) {
  const version = await repo.byId(ctx.db, versionId);
  const dataset = await datasetsPolicy.hidden(ctx, userId, version ? await datasetQueries.byId(ctx.db, version.datasetId) : null, 'restore');
  if (!version || !version.deletedAt) throw errors.conflict(ErrorCode.NotInTrash, 'This version is not in the trash');
  if (dataset.deletedAt) throw errors.conflict(ErrorCode.ParentDeleted, 'Restore the dataset first');
  await ctx.db.transaction(async (tx) => {
    await repo.update(tx, version.id, { deletedAt: null });
    await ctx.events.emit('dataset.version.restored', dataset.userId, { dataset: webhookDataset(dataset), version: versionRef(version), actorId: userId });
  });
}

/** Trashed versions of the user's live datasets, for the trash page. */
export async function trashedVersions(ctx: AppContext, userId: string) {
  return repo.trashedOf(ctx.db, userId);
}

/** Gone for good (trash purge, delete forever): the row goes; the revisions only it saw stay until the dataset's edits compact them. */
export async function purgeVersion(ctx: AppContext, userId: string | null, versionId: string) {
  const version = await repo.byId(ctx.db, versionId);
  if (!version) throw errors.notFound(NAME);
  if (userId) {
    await datasetsPolicy.hidden(ctx, userId, await datasetQueries.byId(ctx.db, version.datasetId), 'delete');
    if (!version.deletedAt) throw errors.conflict(ErrorCode.NotInTrash, 'Move the version to the trash first');
  }
  await repo.remove(ctx.db, version.id);
}

export async function versionsDeletedBefore(ctx: AppContext, cutoff: Date) {
  return repo.deletedBefore(ctx.db, cutoff);
}

/**
 * The version a client's run reads (ADR 0038): `number` given (`ul://…/slug:vN`) → that version;
 * none → the latest version, saved now when the dataset has none yet.
 */
export async function versionForClient(ctx: AppContext, dataset: DatasetRow, number: number | null): Promise<VersionRow> {
  assertProcessed(dataset);
  if (number !== null) {
    const version = await repo.byNumber(ctx.db, dataset.id, number);
    if (!version || version.deletedAt) throw errors.notFound(NAME);
    return version;
  }
  return (await repo.latest(ctx.db, dataset.id)) ?? saveAutoVersion(ctx, dataset, 'Version 1');
}

/**
 * A run on the working state (a model made with a dataset, trained by a HUB client or a cloud agent):
 * the newest version when nothing changed since, else a version saved now for it.
 */
export async function versionForWorkingRun(ctx: AppContext, dataset: DatasetRow, modelName: string): Promise<VersionRow> {
  assertProcessed(dataset);
  return saveAutoVersion(ctx, dataset, `Saved for training ${modelName}`.slice(0, 1000));
}

/** A version of the dataset by its number, not in the trash (the review filter "changed since version N", ADR 0039). */
export async function liveVersionByNumber(ctx: AppContext, datasetId: string, number: number) {
  const version = await repo.byNumber(ctx.db, datasetId, number);
  return version && !version.deletedAt ? version : null;
}

export async function versionById(ctx: AppContext, id: string) {
  return repo.byId(ctx.db, id);
}

export async function versionImages(ctx: AppContext, dataset: DatasetRow, version: VersionRow) {
  return repo.imagesAt(ctx.db, dataset.id, version.seq);
}

/** Lineage: the model (and its run) trained on this version. */
export async function recordLineage(ctx: AppContext, modelId: string, version: VersionRow) {
  await repo.recordLineage(ctx.db, modelId, version.id);
}

/** Version numbers by version id (a model shows the version it trained on). */
export async function versionNumbersOf(ctx: AppContext, ids: string[]) {
  return repo.numbers(ctx.db, ids);
}
