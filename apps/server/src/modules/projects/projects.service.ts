import { and, eq, isNull } from 'drizzle-orm';
import type { Privacy, Project } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { models } from '../../platform/db/schema.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { track } from '../analytics/analytics.service.js';
import { canRead } from './access.js';
import { presentProject } from './projects.presenter.js';
import { projectsRepository, type ProjectRow } from './projects.repository.js';
import { nextFreeSlug, slugify } from './slugs.js';

export const DEFAULT_PROJECT_NAME = 'Untitled';

export async function uniqueProjectSlug(ctx: Pick<AppContext, 'db'>, userId: string, name: string) {
  const base = slugify(name);
  return nextFreeSlug(base, await projectsRepository.slugsLike(ctx.db, userId, base));
}

export async function createProject(ctx: AppContext, userId: string, input: { name?: string; description?: string; privacy?: Privacy }) {
  const name = input.name?.trim() || DEFAULT_PROJECT_NAME;
  const now = ctx.clock.now();
  const row = await projectsRepository.insert(ctx.db, {
    id: newId(),
    userId,
    slug: await uniqueProjectSlug(ctx, userId, name),
    name,
    description: input.description?.trim() ?? '',
    privacy: input.privacy ?? 'private',
    createdAt: now,
    updatedAt: now,
  });
  await track(ctx, userId, 'create_project', { projectId: row.id });
  await publish(ctx, row, 'project.created');
  return row;
}

/** Loads a project the viewer may read, else 404 (private items do not reveal they exist). */
export async function readableProject(ctx: AppContext, viewerId: string | null, id: string) {
  const row = await projectsRepository.byId(ctx.db, id);
  if (!row || !canRead(viewerId, row)) throw errors.notFound('Project');
  return row;
}

export async function ownedProject(ctx: AppContext, userId: string, id: string) {
  const row = await readableProject(ctx, userId, id);
  if (row.userId !== userId) throw errors.forbidden('Only the owner can change this project');
  return row;
}

export async function presentProjects(ctx: AppContext, viewerId: string | null, rows: ProjectRow[]): Promise<Project[]> {
  const totals = await projectsRepository.totals(ctx.db, rows.map((r) => r.id));
  const owners = await projectsRepository.owners(ctx.db, [...new Set(rows.map((r) => r.userId))]);
  return rows.map((r) => presentProject(r, { viewerId, username: owners.get(r.userId) ?? '', totals: totals.get(r.id), secret: ctx.secret }));
}

export async function updateProject(ctx: AppContext, userId: string, id: string, patch: { name?: string; description?: string }) {
  await ownedProject(ctx, userId, id);
  const row = await projectsRepository.update(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  await track(ctx, userId, 'update_project', { projectId: id });
  await publish(ctx, row!, 'project.updated');
  return row!;
}

/** Privacy changes through share, and propagate to every model of the project (spec §4). */
export async function shareProject(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedProject(ctx, userId, id);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await tx.update(models).set({ privacy, updatedAt: now }).where(eq(models.projectId, id));
    return projectsRepository.update(tx, id, { privacy, updatedAt: now });
  });
  await track(ctx, userId, 'share_project', { projectId: id, privacy });
  await publish(ctx, row!, 'project.updated');
  return row!;
}

/** Soft delete: the project and its live models go to the trash together. */
export async function deleteProject(ctx: AppContext, userId: string, id: string) {
  await ownedProject(ctx, userId, id);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await tx.update(models).set({ deletedAt: now, deletedWithProject: true }).where(and(eq(models.projectId, id), isNull(models.deletedAt)));
    return projectsRepository.update(tx, id, { deletedAt: now });
  });
  await track(ctx, userId, 'delete_project', { projectId: id });
  await publish(ctx, row!, 'project.deleted');
  return row!;
}

/** Restore brings back the models that went with the project. */
export async function restoreProject(ctx: AppContext, userId: string, id: string) {
  const existing = await projectsRepository.byId(ctx.db, id);
  if (!existing || existing.userId !== userId) throw errors.notFound('Project');
  const row = await ctx.db.transaction(async (tx) => {
    await tx.update(models).set({ deletedAt: null, deletedWithProject: false }).where(and(eq(models.projectId, id), eq(models.deletedWithProject, true)));
    return projectsRepository.update(tx, id, { deletedAt: null });
  });
  await publish(ctx, row!, 'project.restored');
  return row!;
}

/** Drag-to-reorder in projects you own: order starts at 1 (spec §3). */
export async function reorderModels(ctx: AppContext, userId: string, projectId: string, modelIds: string[]) {
  await ownedProject(ctx, userId, projectId);
  const inProject = new Set((await ctx.db.select({ id: models.id }).from(models).where(eq(models.projectId, projectId))).map((m) => m.id));
  const unknown = modelIds.filter((m) => !inProject.has(m));
  if (unknown.length) throw errors.validation(`Models not in this project: ${unknown.join(', ')}`);
  if (new Set(modelIds).size !== modelIds.length) throw errors.validation('Each model may appear once');
  await ctx.db.transaction(async (tx) => {
    for (const [i, mid] of modelIds.entries()) await tx.update(models).set({ order: i + 1 }).where(eq(models.id, mid));
  });
}

async function publish(ctx: AppContext, row: ProjectRow, event: string) {
  await ctx.bus.publish(`user:${row.userId}:projects`, event, { id: row.id });
  await ctx.bus.publish(`project:${row.id}`, event, { id: row.id });
}
