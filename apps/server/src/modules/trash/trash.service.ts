import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { TRASH_RETENTION_DAYS, type TrashItem } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { datasets, models, projects } from '../../platform/db/schema.js';
import { errors } from '../../platform/http/errors.js';
import { track } from '../analytics/analytics.service.js';
import { purgeModel, restoreModel } from '../models/models.service.js';
import { restoreProject } from '../projects/projects.service.js';
import type { ProjectRow } from '../projects/projects.repository.js';

const RETENTION_MS = TRASH_RETENTION_DAYS * 86_400_000;
type DatasetRow = typeof datasets.$inferSelect;

export async function listTrash(ctx: AppContext, userId: string): Promise<TrashItem[]> {
  const expires = (d: Date) => new Date(d.getTime() + RETENTION_MS).toISOString();
  const ds = await ctx.db.select().from(datasets).where(and(eq(datasets.userId, userId), isNotNull(datasets.deletedAt)));
  const ps = await ctx.db.select().from(projects).where(and(eq(projects.userId, userId), isNotNull(projects.deletedAt)));
  const ms = await ctx.db.select().from(models).where(and(eq(models.userId, userId), isNotNull(models.deletedAt)));
  const projectBytes = new Map<string, number>();
  for (const m of ms) if (m.projectId) projectBytes.set(m.projectId, (projectBytes.get(m.projectId) ?? 0) + m.bytes);
  const projectNames = new Map(ps.map((p) => [p.id, p.name]));
  const items: TrashItem[] = [
    ...ds.map((d) => ({ id: d.id, type: 'dataset' as const, name: d.name, deleted: d.deletedAt!.toISOString(), expires: expires(d.deletedAt!), bytes: d.bytes, parent: null })),
    ...ps.map((p) => ({ id: p.id, type: 'project' as const, name: p.name, deleted: p.deletedAt!.toISOString(), expires: expires(p.deletedAt!), bytes: p.imageBytes + (projectBytes.get(p.id) ?? 0), parent: null })),
    ...ms.map((m) => ({
      id: m.id,
      type: 'model' as const,
      name: m.name,
      deleted: m.deletedAt!.toISOString(),
      expires: expires(m.deletedAt!),
      bytes: m.bytes,
      parent: m.deletedWithProject && m.projectId ? { type: 'project' as const, id: m.projectId, name: projectNames.get(m.projectId) ?? '' } : null,
    })),
  ];
  return items.sort((a, b) => b.deleted.localeCompare(a.deleted));
}

export async function restoreItem(ctx: AppContext, userId: string, type: TrashItem['type'], id: string) {
  if (type === 'project') return void (await restoreProject(ctx, userId, id));
  if (type === 'model') return void (await restoreModel(ctx, userId, id));
  const row = (await ctx.db.select().from(datasets).where(eq(datasets.id, id)))[0];
  if (!row || row.userId !== userId) throw errors.notFound('Dataset');
  await ctx.db.update(datasets).set({ deletedAt: null }).where(eq(datasets.id, id));
  await ctx.bus.publish(`user:${userId}:datasets`, 'dataset.restored', { id });
}

export async function purgeProject(ctx: AppContext, row: ProjectRow) {
  for (const m of await ctx.db.select().from(models).where(eq(models.projectId, row.id))) await purgeModel(ctx, m);
  if (row.imageKey) await ctx.blobs.delete(row.imageKey);
  await ctx.db.delete(projects).where(eq(projects.id, row.id));
}

export async function purgeDataset(ctx: AppContext, row: DatasetRow) {
  await ctx.blobs.deletePrefix(`users/${row.userId}/datasets/${row.id}/`);
  await ctx.db.delete(datasets).where(eq(datasets.id, row.id));
}

export async function deleteForever(ctx: AppContext, userId: string, type: TrashItem['type'], id: string) {
  const table = type === 'dataset' ? datasets : type === 'project' ? projects : models;
  const row = (await ctx.db.select().from(table).where(eq(table.id, id)))[0] as { userId: string; deletedAt: Date | null } | undefined;
  if (!row || row.userId !== userId) throw errors.notFound(type[0]!.toUpperCase() + type.slice(1));
  if (!row.deletedAt) throw errors.conflict('error/not-in-trash', 'Move the item to the trash first');
  if (type === 'dataset') await purgeDataset(ctx, row as DatasetRow);
  else if (type === 'project') await purgeProject(ctx, row as ProjectRow);
  else await purgeModel(ctx, row as typeof models.$inferSelect);
}

export async function emptyTrash(ctx: AppContext, userId: string) {
  const items = await listTrash(ctx, userId);
  // Projects first: they take their models along.
  for (const item of items.filter((i) => i.type === 'project')) await deleteForever(ctx, userId, 'project', item.id);
  for (const item of items.filter((i) => i.type !== 'project' && !(i.type === 'model' && i.parent))) {
    await deleteForever(ctx, userId, item.type, item.id).catch(() => undefined);
  }
  await track(ctx, userId, 'empty_trash', { items: items.length });
  return items.length;
}

/** The purge job: items deleted more than 30 days ago go, with their blobs. */
export async function purgeExpired(ctx: AppContext) {
  const cutoff = new Date(ctx.clock.now().getTime() - RETENTION_MS);
  let n = 0;
  for (const p of await ctx.db.select().from(projects).where(lt(projects.deletedAt, cutoff))) {
    await purgeProject(ctx, p);
    n += 1;
  }
  for (const m of await ctx.db.select().from(models).where(lt(models.deletedAt, cutoff))) {
    await purgeModel(ctx, m);
    n += 1;
  }
  for (const d of await ctx.db.select().from(datasets).where(lt(datasets.deletedAt, cutoff))) {
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
