import { and, eq, isNull } from 'drizzle-orm';
import { MODEL_DEFAULTS, type Model, type ModelConfig, type Privacy } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { models } from '../../platform/db/schema.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { track } from '../analytics/analytics.service.js';
import { canRead } from '../projects/access.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { nextFreeSlug, slugify } from '../projects/slugs.js';
import { presentTraining, trainingRepository } from '../training/training.service.js';
import { presentModel } from './models.presenter.js';
import { modelsRepository, type ModelRow } from './models.repository.js';

export interface CreateModelInput {
  id?: string;
  userId: string | null;
  projectId?: string | null;
  name?: string;
  description?: string;
  privacy?: Privacy;
  config?: Partial<ModelConfig>;
  datasetId?: string | null;
  datasetName?: string | null;
  architecture?: { id?: string; name?: string };
  parent?: { id?: string; name?: string; path?: string; url?: string };
  task?: string | null;
  names?: string[];
  hubStatus?: 'new' | 'training' | 'trained';
  trainEnd?: Date | null;
}

/** Spec §5: a model needs an owner; what is missing is listed in the error. */
export function missingRequired(input: Record<string, unknown>, required: readonly string[]) {
  return required.filter((k) => input[k] === undefined || input[k] === null || input[k] === '');
}

export async function uniqueModelSlug(ctx: Pick<AppContext, 'db'>, userId: string, projectId: string | null, name: string) {
  const base = slugify(name);
  return nextFreeSlug(base, await modelsRepository.slugsLike(ctx.db, userId, projectId, base));
}

export async function createModel(ctx: AppContext, input: CreateModelInput) {
  const missing = missingRequired({ owner: input.userId }, ['owner']);
  if (missing.length) throw new AppError(400, 'error/missing-required-properties', `Missing Required Properties: ${missing.join(', ')}`, { missing });
  const userId = input.userId!;
  let privacy: Privacy = input.privacy ?? MODEL_DEFAULTS.privacy;
  if (input.projectId) {
    const project = await projectsRepository.byId(ctx.db, input.projectId);
    if (!project || project.userId !== userId || project.deletedAt) throw errors.notFound('Project');
    // A new model follows its project's privacy (privacy propagates from projects).
    privacy = input.privacy ?? project.privacy;
  }
  const name = input.name?.trim() || MODEL_DEFAULTS.name;
  const now = ctx.clock.now();
  const row = await modelsRepository.insert(ctx.db, {
    id: input.id ?? newId(),
    userId,
    projectId: input.projectId ?? null,
    slug: await uniqueModelSlug(ctx, userId, input.projectId ?? null, name),
    name,
    description: input.description ?? '',
    privacy,
    config: { ...MODEL_DEFAULTS.config, ...input.config },
    datasetId: input.datasetId ?? null,
    datasetName: input.datasetName ?? null,
    architectureId: input.architecture?.id ?? null,
    architectureName: input.architecture?.name ?? null,
    parentId: input.parent?.id ?? null,
    parentName: input.parent?.name ?? null,
    parentPath: input.parent?.path ?? null,
    parentUrl: input.parent?.url ?? null,
    task: input.task ?? null,
    names: input.names ?? [],
    hubStatus: input.hubStatus ?? 'new',
    trainEnd: input.trainEnd ?? null,
    createdAt: now,
    updatedAt: now,
  });
  if (row.projectId) await projectsRepository.update(ctx.db, row.projectId, { updatedAt: now });
  await track(ctx, userId, 'create_model', { modelId: row.id });
  await publish(ctx, row, 'model.created');
  return row;
}

export async function readableModel(ctx: AppContext, viewerId: string | null, id: string) {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row) throw errors.notFound('Model');
  const project = row.projectId ? await projectsRepository.byId(ctx.db, row.projectId) : null;
  if (!canRead(viewerId, row, { viaParent: project })) throw errors.notFound('Model');
  return row;
}

export async function ownedModel(ctx: AppContext, userId: string, id: string) {
  const row = await readableModel(ctx, userId, id);
  if (row.userId !== userId) throw errors.forbidden('Only the owner can change this model');
  return row;
}

export async function presentModels(ctx: AppContext, viewerId: string | null, rows: ModelRow[], baseUrl = ''): Promise<Model[]> {
  const files = await modelsRepository.files(ctx.db, rows.map((r) => r.id));
  const owners = await projectsRepository.owners(ctx.db, [...new Set(rows.map((r) => r.userId))]);
  const projectIds = [...new Set(rows.map((r) => r.projectId).filter((x): x is string => Boolean(x)))];
  const projectNames = new Map<string, string>();
  for (const pid of projectIds) {
    const p = await projectsRepository.byId(ctx.db, pid);
    if (p) projectNames.set(pid, p.name);
  }
  const now = ctx.clock.now();
  const training = new Map((await trainingRepository.byIds(ctx.db, rows.map((r) => r.id))).map((t) => [t.modelId, presentTraining(t)]));
  return rows.map((r) =>
    presentModel(r, {
      training: training.get(r.id) ?? null,
      viewerId,
      username: owners.get(r.userId) ?? '',
      projectName: r.projectId ? (projectNames.get(r.projectId) ?? null) : null,
      files: files.filter((f) => f.modelId === r.id),
      secret: ctx.secret,
      baseUrl,
      now,
    }),
  );
}

/** Project models: by `order` when any model has one, else most recently updated first (spec §3). */
export function sortProjectModels<T extends { order: number | null; updatedAt: Date }>(rows: T[]): T[] {
  const anyOrder = rows.some((r) => r.order !== null);
  return rows.slice().sort((a, b) =>
    anyOrder ? (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) : b.updatedAt.getTime() - a.updatedAt.getTime(),
  );
}

export async function updateModel(
  ctx: AppContext,
  userId: string,
  id: string,
  patch: { name?: string; description?: string; config?: Partial<ModelConfig>; datasetId?: string; architecture?: { id?: string; name?: string }; parent?: { id?: string; name?: string } },
) {
  const row = await ownedModel(ctx, userId, id);
  const updated = await modelsRepository.update(ctx.db, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.config ? { config: { ...(row.config as object), ...patch.config } } : {}),
    ...(patch.datasetId !== undefined ? { datasetId: patch.datasetId } : {}),
    ...(patch.architecture ? { architectureId: patch.architecture.id ?? row.architectureId, architectureName: patch.architecture.name ?? row.architectureName } : {}),
    ...(patch.parent ? { parentId: patch.parent.id ?? row.parentId, parentName: patch.parent.name ?? row.parentName } : {}),
    updatedAt: ctx.clock.now(),
  });
  await track(ctx, userId, 'update_model', { modelId: id });
  await publish(ctx, updated!, 'model.updated');
  return updated!;
}

export async function shareModel(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedModel(ctx, userId, id);
  const row = await modelsRepository.update(ctx.db, id, { privacy, updatedAt: ctx.clock.now() });
  await track(ctx, userId, 'share_model', { modelId: id, privacy });
  await publish(ctx, row!, 'model.updated');
  return row!;
}

export async function deleteModel(ctx: AppContext, userId: string, id: string, hard = false) {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row || row.userId !== userId) throw errors.notFound('Model');
  if (hard) {
    await purgeModel(ctx, row);
  } else {
    await modelsRepository.update(ctx.db, id, { deletedAt: ctx.clock.now(), deletedWithProject: false });
  }
  await track(ctx, userId, 'delete_model', { modelId: id, hard });
  await publish(ctx, row, 'model.deleted');
}

export async function restoreModel(ctx: AppContext, userId: string, id: string) {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row || row.userId !== userId) throw errors.notFound('Model');
  if (row.projectId) {
    const project = await projectsRepository.byId(ctx.db, row.projectId);
    if (project?.deletedAt) throw errors.conflict('error/parent-deleted', `Restore the project "${project.name}" first`);
  }
  const restored = await modelsRepository.update(ctx.db, id, { deletedAt: null, deletedWithProject: false });
  await publish(ctx, restored!, 'model.restored');
  return restored!;
}

/** Permanent removal: rows and every blob under the model's prefix. */
export async function purgeModel(ctx: AppContext, row: ModelRow) {
  await ctx.blobs.deletePrefix(`users/${row.userId}/models/${row.id}/`);
  await modelsRepository.remove(ctx.db, row.id);
}

export async function transferModel(ctx: AppContext, userId: string, id: string, projectId: string) {
  const row = await ownedModel(ctx, userId, id);
  const target = await projectsRepository.byId(ctx.db, projectId);
  if (!target || target.userId !== userId || target.deletedAt) throw errors.notFound('Project');
  if (row.projectId === projectId) return row;
  const now = ctx.clock.now();
  const slug = await uniqueModelSlug(ctx, userId, projectId, row.slug);
  const updated = await ctx.db.transaction(async (tx) => {
    if (row.projectId) await projectsRepository.update(tx, row.projectId, { updatedAt: now });
    await projectsRepository.update(tx, projectId, { updatedAt: now });
    return modelsRepository.update(tx, id, { projectId, slug, order: null, privacy: target.privacy, updatedAt: now });
  });
  await publish(ctx, updated!, 'model.updated');
  return updated!;
}

export async function liveModelsInProject(ctx: AppContext, projectId: string) {
  return ctx.db.select().from(models).where(and(eq(models.projectId, projectId), isNull(models.deletedAt)));
}

export async function publish(ctx: AppContext, row: ModelRow, event: string) {
  const data = { id: row.id, projectId: row.projectId };
  await ctx.bus.publish(`model:${row.id}`, event, data);
  await ctx.bus.publish(`user:${row.userId}:models`, event, data);
}
