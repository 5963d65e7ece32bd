import type { Action, Privacy, Project } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { abilitiesFor, linkVersionOf, shortBlobUrl, usersAllowed } from '../access/index.js';
import { projectItem, projectsPolicy } from './projects.policy.js';
import { presentProject } from './projects.presenter.js';
import { ownerNames } from '../users/users.service.js';
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
  const row = await ctx.db.transaction(async (tx) => {
    await projectsRepository.lockOwnerForCreate(tx, userId);
    const created = await projectsRepository.insert(tx, {
      id: newId(),
      userId,
      slug: await uniqueProjectSlug({ db: tx }, userId, name),
      name,
      description: input.description?.trim() ?? '',
      privacy: input.privacy ?? 'private',
      createdAt: now,
      updatedAt: now,
    });
    await ctx.events.emit('project.created', created.userId, { projectId: created.id, actorId: userId });
    return created;
  });
  return row;
}

/** Loads a project the viewer may read, else 404 (private items do not reveal they exist). */
export async function readableProject(ctx: AppContext, viewerId: string | null, id: string) {
  return projectsPolicy.read(ctx, viewerId, await projectsRepository.byId(ctx.db, id));
}

/** Of these users, those who may read the project (its row read once: the realtime re-check of `project:<id>`, ADR 0042). */
export async function projectReaders(ctx: AppContext, userIds: string[], id: string) {
  const row = await projectsRepository.byId(ctx.db, id);
  return usersAllowed(ctx, userIds, row ? projectItem(row) : null, 'read');
}

/** Loads a project the caller may change with this action: 404 if not readable, 403 if not allowed. */
export async function ownedProject(ctx: AppContext, userId: string, id: string, action: Action = 'update') {
  return projectsPolicy.act(ctx, userId, await projectsRepository.byId(ctx.db, id), action);
}

/** A hub-sdk page: the owner's (and their teams') projects, or everyone's public ones; newest first. */
export async function listProjects(
  ctx: AppContext,
  viewerId: string | null,
  q: { ownerId?: string; publicOnly: boolean; includeDeleted: boolean; includeArchived: boolean; limit: number; afterId?: string },
) {
  const after = q.afterId ? await projectsRepository.byId(ctx.db, q.afterId) : null;
  const { rows, total } = await projectsRepository.list(ctx.db, { ...q, after });
  return { results: await presentProjects(ctx, viewerId, rows), total, lastRecordId: rows.at(-1)?.id ?? null };
}

export async function presentProjects(ctx: AppContext, viewerId: string | null, rows: ProjectRow[]): Promise<Project[]> {
  // One query per kind of related row for the whole page, sent together.
  const [totals, owners, abilities] = await Promise.all([
    projectsRepository.totals(
      ctx.db,
      rows.map((r) => r.id),
    ),
    ownerNames(
      ctx,
      rows.map((r) => r.userId),
    ),
    abilitiesFor(ctx, viewerId, rows.map(projectItem)),
  ]);
  return rows.map((r, i) =>
    presentProject(r, {
      abilities: abilities[i]!,
      username: owners.get(r.userId) ?? '',
      totals: totals.get(r.id),
      imageUrl: r.imageKey ? shortBlobUrl(ctx, r.imageKey, linkVersionOf(r)) : null,
    }),
  );
}

export async function updateProject(ctx: AppContext, userId: string, id: string, patch: { name?: string; description?: string }) {
  await ownedProject(ctx, userId, id);
  const row = await projectsRepository.update(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  await ctx.events.emit('project.updated', row!.userId, { projectId: id, actorId: userId });
  return row!;
}

/** Privacy changes through share, and propagate to every model of the project (spec §4). */
export async function shareProject(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedProject(ctx, userId, id, 'share');
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await projectsRepository.cascadePrivacy(tx, id, privacy, now);
    const updated = await projectsRepository.update(tx, id, { privacy, updatedAt: now });
    await ctx.events.emit('project.shared', updated!.userId, { projectId: id, actorId: userId, privacy });
    return updated;
  });
  return row!;
}

/** Archiving (spec §4): the project leaves the default lists; its models stay where they are (docs/spec-mapping.md). */
export async function setProjectArchived(ctx: AppContext, userId: string, id: string, archived: boolean) {
  const row = await ownedProject(ctx, userId, id, 'delete');
  if ((row.archivedAt !== null) === archived) return row;
  const updated = await projectsRepository.update(ctx.db, id, { archivedAt: archived ? ctx.clock.now() : null, updatedAt: ctx.clock.now() });
  await ctx.events.emit('project.archived', updated!.userId, { projectId: id, actorId: userId, archived });
  return updated!;
}

/** Soft delete: the project and its live models go to the trash together. */
export async function deleteProject(ctx: AppContext, userId: string, id: string) {
  await ownedProject(ctx, userId, id, 'delete');
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await projectsRepository.trashModels(tx, id, now);
    const deleted = await projectsRepository.update(tx, id, { deletedAt: now });
    await ctx.events.emit('project.deleted', deleted!.userId, { projectId: id, actorId: userId });
    return deleted;
  });
  return row!;
}

/** Restore brings back the models that went with the project. */
export async function restoreProject(ctx: AppContext, userId: string, id: string) {
  await projectsPolicy.trash(ctx, userId, await projectsRepository.byId(ctx.db, id), 'restore');
  const row = await ctx.db.transaction(async (tx) => {
    await projectsRepository.restoreModels(tx, id);
    const restored = await projectsRepository.update(tx, id, { deletedAt: null });
    await ctx.events.emit('project.restored', restored!.userId, { projectId: id, actorId: userId });
    return restored;
  });
  return row!;
}

/** Cover image through the image-only drop zone; stored at users/{uid}/projects/{id}. */
export async function setProjectImage(ctx: AppContext, userId: string, id: string, image: Buffer, contentType: string) {
  const key = blobKeys.projectImage(userId, id);
  await ctx.blobs.put(key, image, { contentType });
  return (await projectsRepository.update(ctx.db, id, { imageKey: key, imageBytes: image.length, updatedAt: ctx.clock.now() }))!;
}

/** Drag-to-reorder in projects you own: order starts at 1 (spec §3). */
export async function reorderModels(ctx: AppContext, userId: string, projectId: string, modelIds: string[]) {
  await ownedProject(ctx, userId, projectId);
  const inProject = await projectsRepository.modelIds(ctx.db, projectId);
  const unknown = modelIds.filter((m) => !inProject.has(m));
  if (unknown.length) throw errors.validation(`Models not in this project: ${unknown.join(', ')}`);
  if (new Set(modelIds).size !== modelIds.length) throw errors.validation('Each model may appear once');
  await projectsRepository.orderModels(ctx.db, modelIds);
}
