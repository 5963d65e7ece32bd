import { ErrorCode, TRASH_RETENTION_DAYS, type TrashItem } from '@sightline/contracts';
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
import { trashRepository } from './trash.repository.js';
import { purgeVersion, restoreVersion, trashedVersions, versionsDeletedBefore } from '../dataset-versions/index.js';

/** @deprecated import it from the datasets module (kept for callers not yet moved). */
export { purgeDataset };

const RETENTION_MS = TRASH_RETENTION_DAYS * 86_400_000;

export async function listTrash(ctx: AppContext, userId: string): Promise<TrashItem[]> {
  const expires = (d: Date) => new Date(d.getTime() + RETENTION_MS).toISOString();
  const ds = await trashRepository.datasetsOf(ctx.db, userId);
  const ps = await trashRepository.projectsOf(ctx.db, userId);
  const ms = await trashRepository.modelsOf(ctx.db, userId);
  const projectBytes = new Map<string, number>();
  // A project's size counts the models that went (and come back) with it; a model deleted on its own is its own row.
  for (const m of ms) if (m.projectId && m.deletedWithProject) projectBytes.set(m.projectId, (projectBytes.get(m.projectId) ?? 0) + m.bytes);
  const vs = await trashedVersions(ctx, userId);
  const projectNames = new Map(ps.map((p) => [p.id, p.name]));
  const items: TrashItem[] = [
    ...ds.map((d) => ({
      id: d.id,
      type: 'dataset' as const,
      name: d.name,
      deleted: d.deletedAt!.toISOString(),
      expires: expires(d.deletedAt!),
      bytes: d.bytes,
      parent: null,
    })),
    ...ps.map((p) => ({
      id: p.id,
      type: 'project' as const,
      name: p.name,
      deleted: p.deletedAt!.toISOString(),
      expires: expires(p.deletedAt!),
      bytes: p.imageBytes + (projectBytes.get(p.id) ?? 0),
      parent: null,
    })),
    ...ms.map((m) => ({
      id: m.id,
      type: 'model' as const,
      name: m.name,
      deleted: m.deletedAt!.toISOString(),
      expires: expires(m.deletedAt!),
      bytes: m.bytes,
      parent: m.deletedWithProject && m.projectId ? { type: 'project' as const, id: m.projectId, name: projectNames.get(m.projectId) ?? '' } : null,
    })),
    // Dataset versions (ADR 0038): their images are the dataset's, so a version frees no bytes of its own.
    ...vs.map(({ version: v, datasetName }) => ({
      id: v.id,
      type: 'datasetVersion' as const,
      name: `${datasetName} v${v.number}`,
      deleted: v.deletedAt!.toISOString(),
      expires: expires(v.deletedAt!),
      bytes: 0,
      parent: { type: 'dataset' as const, id: v.datasetId, name: datasetName },
    })),
  ];
  return items.sort((a, b) => b.deleted.localeCompare(a.deleted));
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
