import { ErrorCode, TRASH_PAGE_MAX, TRASH_RETENTION_DAYS, type TrashItem, type TrashPage } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { purgeModel, restoreModel } from '../models/models.service.js';
import { deleteProject as softDeleteProject, restoreProject } from '../projects/projects.service.js';
import { projectQueries, type ProjectRow } from '../projects/index.js';
import { projectsPolicy } from '../projects/projects.policy.js';
import { datasetsPolicy } from '../datasets/datasets.policy.js';
import { modelsPolicy } from '../models/models.policy.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { datasetQueries, type DatasetRow } from '../datasets/index.js';
import { purgeDataset } from '../datasets/datasets.service.js';
import { trashRepository, type TrashAfter } from './trash.repository.js';
import { purgeVersion, restoreVersion, trashedVersions, versionsDeletedBefore } from '../dataset-versions/index.js';

/** @deprecated import it from the datasets module (kept for callers not yet moved). */
export { purgeDataset };

const RETENTION_MS = TRASH_RETENTION_DAYS * 86_400_000;

/** The keyset cursor of a trash page: the (deleted, id) of its last item, opaque to clients. */
const encodeCursor = (item: TrashItem) => Buffer.from(`${item.deleted}|${item.id}`).toString('base64url');
function decodeCursor(cursor: string): TrashAfter | null {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const deleted = iso ? new Date(iso) : null;
  return deleted && !Number.isNaN(deleted.getTime()) && id && /^[\w-]{1,40}$/.test(id) ? { deleted, id } : null;
}

/**
 * A page of the user's trash, newest deletion first (ADR 0042): each kind read on its keyset index
 * after the cursor, `limit + 1` rows at most, merged; so the last page costs what the first does.
 */
export async function trashPage(ctx: AppContext, userId: string, q: { cursor?: string; limit: number }): Promise<TrashPage> {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  if (q.cursor && !after) throw errors.validation('cursor must be the nextCursor of a previous page', { field: 'cursor' });
  // The whole trash's count and bytes come with the first page only: they are aggregates over the
  // whole trash, which the later pages (keyset reads of `limit + 1` rows) do not pay for again.
  const [page, totals] = await Promise.all([
    itemsAfter(ctx, userId, after, q.limit + 1),
    after
      ? Promise.resolve({ count: null, bytes: null })
      : Promise.all([trashRepository.totals(ctx.db, userId), trashedVersions(ctx, userId)]).then(([t, vs]) => ({ ...t, count: t.count + vs.length })),
  ]);
  const items = page.slice(0, q.limit);
  return { items, nextCursor: page.length > q.limit && items.length ? encodeCursor(items[items.length - 1]!) : null, ...totals };
}

/** Up to `limit` trashed items of the user after the cursor (exported for bench/keyset-pages.bench.ts), newest deletion first, with sizes and parents. */
export async function itemsAfter(ctx: AppContext, userId: string, after: TrashAfter | null, limit: number): Promise<TrashItem[]> {
  const expires = (d: Date) => new Date(d.getTime() + RETENTION_MS).toISOString();
  const [ds, ps, ms] = await Promise.all([
    trashRepository.datasetsPage(ctx.db, userId, after, limit),
    trashRepository.projectsPage(ctx.db, userId, after, limit),
    trashRepository.modelsPage(ctx.db, userId, after, limit),
  ]);
  const rows = [
    ...ds.map((row) => ({ kind: 'dataset' as const, row })),
    ...ps.map((row) => ({ kind: 'project' as const, row })),
    ...ms.map((row) => ({ kind: 'model' as const, row })),
  ]
    .sort((a, b) => b.row.deletedAt!.getTime() - a.row.deletedAt!.getTime() || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0))
    .slice(0, limit);
  const projectIds = rows.filter((r) => r.kind === 'project').map((r) => r.row.id);
  const parentIds = [...new Set(rows.flatMap((r) => (r.kind === 'model' && r.row.deletedWithProject && r.row.projectId ? [r.row.projectId] : [])))];
  // A project's size counts the models that went (and come back) with it; a model deleted on its own is its own row.
  const [projectBytes, projectNames] = await Promise.all([
    trashRepository.bytesDeletedWith(ctx.db, projectIds),
    trashRepository.projectNames(ctx.db, parentIds),
  ]);
  // Dataset versions (ADR 0038): few per user, read whole and cut at the cursor like the others.
  const versions = (await trashedVersions(ctx, userId))
    .filter(({ version: v }) => !after || v.deletedAt! < after.deleted || (v.deletedAt!.getTime() === after.deleted.getTime() && v.id < after.id))
    .map(({ version: v, datasetName }): { deleted: Date; item: TrashItem } => ({
      deleted: v.deletedAt!,
      item: {
        id: v.id,
        type: 'datasetVersion',
        name: `${datasetName} v${v.number}`,
        deleted: v.deletedAt!.toISOString(),
        expires: expires(v.deletedAt!),
        // Their images are the dataset's, so a version frees no bytes of its own.
        bytes: 0,
        parent: { type: 'dataset', id: v.datasetId, name: datasetName },
      },
    }));
  const items = rows.map(({ kind, row }): TrashItem => {
    const common = { id: row.id, name: row.name, deleted: row.deletedAt!.toISOString(), expires: expires(row.deletedAt!) };
    if (kind === 'dataset') return { ...common, type: 'dataset', bytes: row.bytes, parent: null };
    if (kind === 'project') return { ...common, type: 'project', bytes: row.imageBytes + (projectBytes.get(row.id) ?? 0), parent: null };
    return {
      ...common,
      type: 'model',
      bytes: row.bytes,
      parent: row.deletedWithProject && row.projectId ? { type: 'project', id: row.projectId, name: projectNames.get(row.projectId) ?? '' } : null,
    };
  });
  if (!versions.length) return items;
  return [...items.map((item) => ({ deleted: new Date(item.deleted), item })), ...versions]
    .sort((a, b) => b.deleted.getTime() - a.deleted.getTime() || (a.item.id < b.item.id ? 1 : a.item.id > b.item.id ? -1 : 0))
    .slice(0, limit)
    .map((x) => x.item);
}

/** Every item of the user's trash, a page at a time (emptying the trash). */
export async function listTrash(ctx: AppContext, userId: string): Promise<TrashItem[]> {
  const all: TrashItem[] = [];
  let after: TrashAfter | null = null;
  for (;;) {
    const page = await itemsAfter(ctx, userId, after, TRASH_PAGE_MAX);
    all.push(...page);
    if (page.length < TRASH_PAGE_MAX) return all;
    const last = page[page.length - 1]!;
    after = { deleted: new Date(last.deleted), id: last.id };
  }
}

export async function restoreItem(ctx: AppContext, userId: string, type: TrashItem['type'], id: string) {
  // Projects and models are audited by their restore functions; the dataset is restored here.
  if (type === 'project') return void (await restoreProject(ctx, userId, id));
  if (type === 'model') return void (await restoreModel(ctx, userId, id));
  if (type === 'datasetVersion') return void (await restoreVersion(ctx, userId, id));
  await datasetsPolicy.hidden(ctx, userId, await datasetQueries.byId(ctx.db, id), 'restore');
  await datasetQueries.update(ctx.db, id, { deletedAt: null });
  await ctx.events.emit('dataset.restored', userId, { dataset: { id }, actorId: userId });
}

export async function purgeProject(ctx: AppContext, row: ProjectRow) {
  for (const m of await modelQueries.inProject(ctx.db, row.id, true)) await purgeModel(ctx, m);
  if (row.imageKey) await ctx.blobs.delete(row.imageKey);
  await projectQueries.remove(ctx.db, row.id);
}

/** DELETE /v1/projects/{id}: to the trash with its models, or (`hard`) gone for good with them. */
export async function deleteProject(ctx: AppContext, userId: string, id: string, hard: boolean) {
  if (!hard) return void (await softDeleteProject(ctx, userId, id));
  await purgeProject(ctx, await projectsPolicy.trash(ctx, userId, await projectQueries.byId(ctx.db, id), 'delete'));
}

export async function deleteForever(ctx: AppContext, userId: string, type: TrashItem['type'], id: string) {
  if (type === 'datasetVersion') return void (await purgeVersion(ctx, userId, id));
  const row =
    type === 'dataset'
      ? await datasetsPolicy.hidden(ctx, userId, await datasetQueries.byId(ctx.db, id), 'delete')
      : type === 'project'
        ? await projectsPolicy.trash(ctx, userId, await projectQueries.byId(ctx.db, id), 'delete')
        : await modelsPolicy.hidden(ctx, userId, await modelQueries.byId(ctx.db, id), 'delete');
  if (!row.deletedAt) throw errors.conflict(ErrorCode.NotInTrash, 'Move the item to the trash first');
  if (type === 'dataset') await purgeDataset(ctx, row as DatasetRow);
  else if (type === 'project') await purgeProject(ctx, row as ProjectRow);
  else await purgeModel(ctx, row as ModelRow);
}

export async function emptyTrash(ctx: AppContext, userId: string) {
  const items = await listTrash(ctx, userId);
  // Projects first: they take their models along.
  for (const item of items.filter((i) => i.type === 'project')) await deleteForever(ctx, userId, 'project', item.id);
  for (const item of items.filter((i) => i.type !== 'project' && !(i.type === 'model' && i.parent))) {
    await deleteForever(ctx, userId, item.type, item.id).catch(() => undefined);
  }
  await ctx.events.emit('trash.emptied', userId, { actorId: userId, items: items.length });
  return items.length;
}

/** The purge job: items deleted more than 30 days ago go, with their blobs. */
export async function purgeExpired(ctx: AppContext) {
  const cutoff = new Date(ctx.clock.now().getTime() - RETENTION_MS);
  let n = 0;
  for (const p of await trashRepository.projectsDeletedBefore(ctx.db, cutoff)) {
    await purgeProject(ctx, p);
    n += 1;
  }
  for (const m of await trashRepository.modelsDeletedBefore(ctx.db, cutoff)) {
    await purgeModel(ctx, m);
    n += 1;
  }
  for (const v of await versionsDeletedBefore(ctx, cutoff)) {
    await purgeVersion(ctx, null, v.id);
    n += 1;
  }
  for (const d of await trashRepository.datasetsDeletedBefore(ctx.db, cutoff)) {
    await purgeDataset(ctx, d);
    n += 1;
  }
  return n;
}

export const PURGE_QUEUE = 'trash.purge';
export function registerPurgeJob(ctx: AppContext) {
  ctx.jobs.register(PURGE_QUEUE, async () => {
    await purgeExpired(ctx);
  });
}
/** Hourly, deduplicated per hour so several instances schedule it once. */
export async function schedulePurge(ctx: AppContext) {
  const hour = Math.floor(ctx.clock.now().getTime() / 3600_000);
  await ctx.jobs.enqueue(PURGE_QUEUE, {}, { dedupeKey: `trash-purge:${hour}` });
}
