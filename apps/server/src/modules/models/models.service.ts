import { ErrorCode, MODEL_DEFAULTS, type Action, type Model, type ModelConfig, type Privacy } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { planLimits } from '../billing/billing.plans.js';
import { abilitiesFor, linkVersionOf, usersAllowed } from '../access/index.js';
import { projectsPolicy } from '../projects/projects.policy.js';
import { readableProject } from '../projects/projects.service.js';
import { projectQueries } from '../projects/index.js';
import { datasetQueries } from '../datasets/index.js';
import { ownerNames } from '../users/users.service.js';
import { nextFreeSlug, slugify } from '../projects/slugs.js';
import { hubModelFields } from './models.hub-fields.js';
import { versionNumbersOf } from '../dataset-versions/index.js';
import { modelItem, modelsPolicy } from './models.policy.js';
import { presentModel, presentTraining } from './models.presenter.js';
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
  /** uploaded: weights trained elsewhere; their config keeps only what the file says (ADR 0022). */
  origin?: 'created' | 'uploaded';
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
  if (missing.length) throw new AppError(400, ErrorCode.MissingRequiredProperties, `Missing Required Properties: ${missing.join(', ')}`, { missing });
  const userId = input.userId!;
  let privacy: Privacy = input.privacy ?? MODEL_DEFAULTS.privacy;
  let teamId: string | null = null;
  if (input.projectId) {
    const project = await projectsPolicy.addModels(ctx, userId, await projectQueries.byId(ctx.db, input.projectId));
    // A new model follows its project's privacy (privacy propagates from projects).
    privacy = input.privacy ?? project.privacy;
    // A model made in a team's project belongs to that team (ADR 0008).
    teamId = project.teamId;
  }
  const name = input.name?.trim() || MODEL_DEFAULTS.name;
  const now = ctx.clock.now();
  // The plan's model count (product notes: free 100, pro 500), held under concurrency by a per-owner lock.
  const row = await ctx.db.transaction(async (tx) => {
    const { live, plan } = await modelsRepository.lockOwnerForCreate(tx, userId);
    const limit = (await planLimits({ db: tx }, plan)).models;
    const slug = await uniqueModelSlug({ db: tx }, userId, input.projectId ?? null, name); // after the lock: no two creations pick the same slug
    if (live >= limit)
      throw new AppError(403, ErrorCode.ModelLimit, `Your plan allows ${limit} models. Delete models or upgrade your plan to add more.`, { limit });
    return modelsRepository.insert(tx, {
      id: input.id ?? newId(),
      userId,
      projectId: input.projectId ?? null,
      teamId,
      slug,
      name,
      description: input.description ?? '',
      privacy,
      config: input.origin === 'uploaded' ? { ...input.config } : { ...MODEL_DEFAULTS.config, ...input.config },
      origin: input.origin ?? 'created',
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
  });
  if (row.projectId) await projectQueries.update(ctx.db, row.projectId, { updatedAt: now });
  await ctx.events.emit('model.created', row.userId, { model: modelState(row), actorId: userId });
  return row;
}

export async function readableModel(ctx: AppContext, viewerId: string | null, id: string) {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row) throw errors.notFound('Model');
  const project = row.projectId ? await projectQueries.byId(ctx.db, row.projectId) : null;
  return modelsPolicy.read(ctx, viewerId, row, project);
}

/** Of these users, those who may read the model (its row and project read once: the realtime re-check of `model:<id>`, ADR 0042). */
export async function modelReaders(ctx: AppContext, userIds: string[], id: string) {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row) return new Set<string>();
  const project = row.projectId ? await projectQueries.byId(ctx.db, row.projectId) : null;
  return usersAllowed(ctx, userIds, modelItem(row, project), 'read');
}

/** A model the caller may change with this action: 404 if not readable, 403 if not allowed. */
export async function ownedModel(ctx: AppContext, userId: string, id: string, action: Action = 'update') {
  const row = await modelsRepository.byId(ctx.db, id);
  if (!row) throw errors.notFound('Model');
  const project = row.projectId ? await projectQueries.byId(ctx.db, row.projectId) : null;
  return modelsPolicy.act(ctx, userId, row, project, action);
}

export async function presentModels(ctx: AppContext, viewerId: string | null, rows: ModelRow[], baseUrl = ''): Promise<Model[]> {
  const ids = rows.map((r) => r.id);
  const projectIds = [...new Set(rows.map((r) => r.projectId).filter((x): x is string => Boolean(x)))];
  // One query per kind of related row for the whole page, sent together (no query per model).
  // A run started from a client records the dataset's id only: its name comes from the dataset.
  const unnamedDatasets = [...new Set(rows.filter((r) => r.datasetId && !r.datasetName).map((r) => r.datasetId!))];
  const versionIds = [...new Set(rows.map((r) => r.datasetVersionId).filter((x): x is string => Boolean(x)))];
  const [files, owners, projectNames, trainingRows, abilities, datasetNames, versionNumbers] = await Promise.all([
    modelsRepository.files(ctx.db, ids),
    ownerNames(
      ctx,
      rows.map((r) => r.userId),
    ),
    projectQueries.names(ctx.db, projectIds),
    modelsRepository.trainingStates(ctx.db, ids),
    abilitiesFor(
      ctx,
      viewerId,
      rows.map((r) => modelItem(r)),
    ),
    datasetQueries.names(ctx.db, unnamedDatasets),
    // The dataset version each model trained on (ADR 0038): the model page links to it.
    versionNumbersOf(ctx, versionIds),
  ]);
  const now = ctx.clock.now();
  const training = new Map(trainingRows.map((t) => [t.modelId, presentTraining(t)]));
  return rows.map((r, i) =>
    presentModel(r.datasetId && !r.datasetName ? { ...r, datasetName: datasetNames.get(r.datasetId) ?? null } : r, {
      training: training.get(r.id) ?? null,
      datasetVersion: r.datasetVersionId ? (versionNumbers.get(r.datasetVersionId) ?? null) : null,
      abilities: abilities[i]!,
      username: owners.get(r.userId) ?? '',
      projectName: r.projectId ? (projectNames.get(r.projectId) ?? null) : null,
      files: files.filter((f) => f.modelId === r.id),
      secret: ctx.secret,
      baseUrl,
      now,
      access: linkVersionOf(r),
    }),
  );
}

/** A hub-sdk page of models: a readable project's (in its order), the caller's, or public ones. */
export async function listModels(
  ctx: AppContext,
  viewerId: string | null,
  q: { ownerId?: string; projectId?: string; publicOnly: boolean; includeDeleted: boolean; includeArchived: boolean; limit: number; afterId?: string },
) {
  const ownerId = q.projectId ? (await readableProject(ctx, viewerId, q.projectId)).userId : q.ownerId;
  const after = q.afterId ? await modelsRepository.byId(ctx.db, q.afterId) : null;
  const { rows, total } = await modelsRepository.list(ctx.db, { ...q, ownerId, after });
  const ordered = q.projectId ? sortProjectModels(rows) : rows;
  return { results: await presentModels(ctx, viewerId, ordered), total, lastRecordId: rows.at(-1)?.id ?? null };
}

/** GET /v1/models/{id}: the web shape plus the fields the ultralytics HUB client reads (hub-protocol §10). */
export async function modelDocument(ctx: AppContext, viewerId: string | null, id: string, baseUrl: string) {
  const row = await readableModel(ctx, viewerId, id);
  const files = await modelsRepository.files(ctx.db, [row.id]);
  const hub = await hubModelFields(ctx, viewerId, row, files, baseUrl);
  return { ...(await presentModelById(ctx, viewerId, row.id)), ...hub };
}

/** One model as the API answers it (the caller already passed its access check). */
export async function presentModelById(ctx: AppContext, viewerId: string | null, id: string) {
  return (await presentModels(ctx, viewerId, [(await modelsRepository.byId(ctx.db, id))!]))[0]!;
}

/** The models of a project the viewer may read, in the project's order. */
export async function projectModels(ctx: AppContext, viewerId: string | null, projectId: string) {
  const project = await readableProject(ctx, viewerId, projectId);
  return presentModels(ctx, viewerId, sortProjectModels(await modelsRepository.inProject(ctx.db, project.id)));
}

/** Project models: by `order` when any model has one, else most recently updated first (spec §3). */
export function sortProjectModels<T extends { order: number | null; updatedAt: Date }>(rows: T[]): T[] {
  const anyOrder = rows.some((r) => r.order !== null);
  return rows
    .slice()
    .sort((a, b) => (anyOrder ? (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) : b.updatedAt.getTime() - a.updatedAt.getTime()));
}

export async function updateModel(
  ctx: AppContext,
  userId: string,
  id: string,
  patch: {
    name?: string;
    description?: string;
    config?: Partial<ModelConfig>;
    datasetId?: string;
    architecture?: { id?: string; name?: string };
    parent?: { id?: string; name?: string };
  },
) {
  const row = await ownedModel(ctx, userId, id);
  const updated = await modelsRepository.update(ctx.db, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.config ? { config: { ...(row.config as object), ...patch.config } } : {}),
    ...(patch.datasetId !== undefined ? { datasetId: patch.datasetId } : {}),
    ...(patch.architecture
      ? { architectureId: patch.architecture.id ?? row.architectureId, architectureName: patch.architecture.name ?? row.architectureName }
      : {}),
    ...(patch.parent ? { parentId: patch.parent.id ?? row.parentId, parentName: patch.parent.name ?? row.parentName } : {}),
    updatedAt: ctx.clock.now(),
  });
  await ctx.events.emit('model.updated', updated!.userId, { model: modelState(updated!), actorId: userId });
  return updated!;
}

export async function shareModel(ctx: AppContext, userId: string, id: string, privacy: Privacy) {
  await ownedModel(ctx, userId, id, 'share');
  const row = await modelsRepository.update(ctx.db, id, { privacy, updatedAt: ctx.clock.now() });
  await ctx.events.emit('model.shared', row!.userId, { model: modelState(row!), actorId: userId, privacy });
  return row!;
}

/** Archiving (spec §4): the model leaves the default lists and keeps serving predictions and downloads. */
export async function setModelArchived(ctx: AppContext, userId: string, id: string, archived: boolean) {
  const row = await ownedModel(ctx, userId, id, 'delete');
  if ((row.archivedAt !== null) === archived) return row;
  const updated = await modelsRepository.update(ctx.db, id, { archivedAt: archived ? ctx.clock.now() : null, updatedAt: ctx.clock.now() });
  await ctx.events.emit('model.archived', updated!.userId, { model: modelState(updated!), actorId: userId, archived });
  return updated!;
}

export async function deleteModel(ctx: AppContext, userId: string, id: string, hard = false) {
  const row = await modelsPolicy.hidden(ctx, userId, await modelsRepository.byId(ctx.db, id), 'delete');
  if (hard) {
    await purgeModel(ctx, row);
  } else {
    await modelsRepository.update(ctx.db, id, { deletedAt: ctx.clock.now(), deletedWithProject: false });
  }
  await ctx.events.emit('model.deleted', row.userId, {
    model: { id: row.id, name: row.name, slug: row.slug, projectId: row.projectId },
    permanent: hard,
    deletedBy: userId,
  });
}

export async function restoreModel(ctx: AppContext, userId: string, id: string) {
  const row = await modelsPolicy.hidden(ctx, userId, await modelsRepository.byId(ctx.db, id), 'restore');
  if (row.projectId) {
    const project = await projectQueries.byId(ctx.db, row.projectId);
    if (project?.deletedAt) throw errors.conflict(ErrorCode.ParentDeleted, `Restore the project "${project.name}" first`);
  }
  const restored = await modelsRepository.update(ctx.db, id, { deletedAt: null, deletedWithProject: false });
  await ctx.events.emit('model.restored', restored!.userId, { model: modelState(restored!), actorId: userId });
  return restored!;
}

/** Permanent removal: rows and every blob under the model's prefix. */
export async function purgeModel(ctx: AppContext, row: ModelRow) {
  await ctx.blobs.deletePrefix(blobKeys.modelPrefix(row.userId, row.id));
  await modelsRepository.remove(ctx.db, row.id);
}

/**
 * Moves a model to another project (ADR 0023): within its team (another project of the same team)
 * the matrix's `move` (owner or team admin), anywhere else — out of its team, into another team, a
 * model of no team — `transfer` (its owner only), so nobody takes a team's model where the team has
 * no say. The caller must also be allowed to put models in the target project.
 */
export async function transferModel(ctx: AppContext, userId: string, id: string, projectId: string) {
  const found = await modelsRepository.byId(ctx.db, id);
  if (!found) throw errors.notFound('Model');
  const project = found.projectId ? await projectQueries.byId(ctx.db, found.projectId) : null;
  const row = await modelsPolicy.relocate(ctx, userId, found, project, 'move');
  const target = await projectsPolicy.addModels(ctx, userId, await projectQueries.byId(ctx.db, projectId));
  if (row.projectId === projectId) return row;
  if (!row.teamId || target.teamId !== row.teamId) await modelsPolicy.relocate(ctx, userId, row, project, 'transfer');
  const now = ctx.clock.now();
  const slug = await uniqueModelSlug(ctx, userId, projectId, row.slug);
  const updated = await ctx.db.transaction(async (tx) => {
    if (row.projectId) await projectQueries.update(tx, row.projectId, { updatedAt: now });
    await projectQueries.update(tx, projectId, { updatedAt: now });
    // The model follows its new project's privacy and team.
    return modelsRepository.update(tx, id, { projectId, slug, order: null, privacy: target.privacy, teamId: target.teamId, updatedAt: now });
  });
  await ctx.events.emit('model.moved', updated!.userId, { model: modelState(updated!), actorId: userId });
  return updated!;
}

export async function liveModelsInProject(ctx: AppContext, projectId: string) {
  return modelsRepository.liveInProject(ctx.db, projectId);
}

const modelState = (row: ModelRow) => ({ id: row.id, projectId: row.projectId });
