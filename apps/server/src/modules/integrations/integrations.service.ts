import {
  EXTERNAL_FETCH_LIMIT,
  EXTERNAL_PREVIEW_LIMIT,
  ErrorCode,
  parseRoboflowProjectRef,
  type RoboflowBrowse,
  type RoboflowImport,
  type RoboflowPreview,
} from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { presentDatasets, readableDataset, readableDatasets } from '../datasets/datasets.service.js';
import { integrationsPolicy } from './integrations.policy.js';
import {
  presentImport,
  presentIntegration,
  presentProject,
  presentSubscription,
  presentVersion,
  unsupportedReason,
  versionNumber,
} from './integrations.presenter.js';
import { integrationsRepository as repo, type ImportRow } from './integrations.repository.js';
import { RoboflowClient, RoboflowError } from './roboflow.client.js';
import { secretBox } from './secret-box.js';

export const IMPORT_QUEUE = 'roboflow.import';
/**
 * Spec §7/§9 "external fetch limit 100; preview 5". The spec's `{workspace}/{project}/dataset?limit=100`
 * is not in Roboflow's API, so the 100 caps the workspace's project listing and the 5 the image search
 * behind previews (docs/spec-mapping.md).
 */
export const PROJECT_LIMIT = EXTERNAL_FETCH_LIMIT;
export const PREVIEW_LIMIT = EXTERNAL_PREVIEW_LIMIT;

export const importJobKey = (importId: string) => `roboflow-import:${importId}`;

export function clientFor(ctx: AppContext, apiKey: string) {
  const { apiUrl, pollMs } = ctx.config.roboflow;
  return new RoboflowClient({ baseUrl: apiUrl, apiKey, retryBaseMs: Math.min(1000, pollMs) });
}

const box = (ctx: AppContext) => secretBox(ctx.secret);

// ---------- link, replace, remove, subscribe, settings ----------

export async function overview(ctx: AppContext, userId: string) {
  const [integrations, subscriptions, uploadAllWeights] = await Promise.all([
    repo.list(ctx.db, userId),
    repo.subscriptions(ctx.db, userId),
    repo.uploadAllWeights(ctx.db, userId),
  ]);
  return { integrations: integrations.map(presentIntegration), subscriptions: subscriptions.map(presentSubscription), settings: { uploadAllWeights } };
}

/** The key is checked against Roboflow's root first; the workspace is the one Roboflow names, not user input. */
export async function linkWorkspace(ctx: AppContext, userId: string, apiKey: string) {
  const client = clientFor(ctx, apiKey);
  const { workspace } = await client.root();
  const ws = await client.workspace(workspace);
  const now = ctx.clock.now();
  const row = await repo.upsert(ctx.db, {
    id: newId(),
    userId,
    type: 'roboflow',
    workspace,
    workspaceName: ws.workspace?.name ?? workspace,
    apiKeyEnc: box(ctx).seal(apiKey, userId),
    createdAt: now,
    updatedAt: now,
  });
  ctx.log.info({ userId, workspace, integrationId: row.id }, 'roboflow workspace linked');
  return presentIntegration(row);
}

export async function replaceKey(ctx: AppContext, userId: string, id: string, apiKey: string) {
  const row = integrationsPolicy.own(userId, await repo.byId(ctx.db, id), 'Integration');
  const { workspace } = await clientFor(ctx, apiKey).root();
  if (workspace !== row.workspace)
    throw new AppError(
      400,
      ErrorCode.RoboflowInvalidKey,
      `This key belongs to the workspace "${workspace}", not "${row.workspace}". Link it as a new workspace instead.`,
    );
  const updated = await repo.update(ctx.db, id, { apiKeyEnc: box(ctx).seal(apiKey, userId), updatedAt: ctx.clock.now() });
  return presentIntegration(updated!);
}

export async function unlink(ctx: AppContext, userId: string, id: string) {
  integrationsPolicy.own(userId, await repo.byId(ctx.db, id), 'Integration');
  await repo.remove(ctx.db, id);
}

export async function subscribe(ctx: AppContext, userId: string, input: { project: string; apiKey?: string }) {
  const ref = parseRoboflowProjectRef(input.project);
  if (!ref) throw errors.validation('project: Give a Universe URL (https://universe.roboflow.com/workspace/project) or workspace/project');
  const key = input.apiKey ?? (await anyWorkspaceKey(ctx, userId));
  if (!key)
    throw new AppError(
      400,
      ErrorCode.RoboflowNotLinked,
      'Reading a Universe project needs a private API key: link a workspace first or paste a key with the subscription.',
    );
  const client = clientFor(ctx, key);
  if (input.apiKey) await client.root();
  await client.project(ref.workspace, ref.project);
  const now = ctx.clock.now();
  const row = await repo.upsertSubscription(ctx.db, {
    id: newId(),
    userId,
    collection: 'ext_roboflow',
    ref: `${ref.workspace}/${ref.project}`,
    apiKeyEnc: input.apiKey ? box(ctx).seal(input.apiKey, userId) : null,
    createdAt: now,
    updatedAt: now,
  });
  return presentSubscription(row);
}

export async function unsubscribe(ctx: AppContext, userId: string, id: string) {
  integrationsPolicy.own(userId, await repo.subscription(ctx.db, id), 'Subscription');
  await repo.removeSubscription(ctx.db, id);
}

export async function setSettings(ctx: AppContext, userId: string, input: { uploadAllWeights: boolean }) {
  await repo.setUploadAllWeights(ctx.db, userId, input.uploadAllWeights, ctx.clock.now());
  return { uploadAllWeights: await repo.uploadAllWeights(ctx.db, userId) };
}

async function anyWorkspaceKey(ctx: AppContext, userId: string) {
  const first = (await repo.list(ctx.db, userId))[0];
  return first ? box(ctx).open(first.apiKeyEnc, userId) : null;
}

/**
 * Which key reads `ws/project`, and as what: a linked workspace reads its own projects; a
 * subscription reads a Universe project with its own key or any linked workspace's key.
 */
export async function access(ctx: AppContext, userId: string, workspace: string, project: string) {
  const integ = await repo.byWorkspace(ctx.db, userId, workspace);
  if (integ) return { apiKey: box(ctx).open(integ.apiKeyEnc, userId), source: 'workspace' as const };
  const sub = await repo.subscriptionByRef(ctx.db, userId, `${workspace}/${project}`);
  if (sub) {
    const apiKey = sub.apiKeyEnc ? box(ctx).open(sub.apiKeyEnc, userId) : await anyWorkspaceKey(ctx, userId);
    if (!apiKey)
      throw new AppError(400, ErrorCode.RoboflowNotLinked, 'This subscription has no API key and no workspace is linked: link a workspace to read it.');
    return { apiKey, source: 'universe' as const };
  }
  throw new AppError(404, ErrorCode.RoboflowNotLinked, `Link the workspace "${workspace}" or subscribe to "${workspace}/${project}" first.`);
}

// ---------- browse ----------

const problem = (err: unknown) =>
  (err instanceof AppError && err.statusCode < 500) || err instanceof RoboflowError
    ? { code: (err as AppError).code, message: (err as AppError).message }
    : { code: ErrorCode.RoboflowUnavailable, message: 'Roboflow could not be read right now.' };

/** Spec §7: unknown project types are logged and skipped (listed greyed with the reason). */
function logSkipped(ctx: AppContext, projects: Array<{ id: string; type: string; unsupportedReason: string | null }>) {
  for (const p of projects.filter((x) => x.unsupportedReason)) ctx.log.info({ project: p.id, type: p.type }, 'roboflow project type not imported, skipped');
}

export async function browse(ctx: AppContext, userId: string): Promise<RoboflowBrowse> {
  const [integrations, subs] = await Promise.all([repo.list(ctx.db, userId), repo.subscriptions(ctx.db, userId)]);
  const workspaces = await Promise.all(
    integrations.map(async (row) => {
      const base = { integrationId: row.id, workspace: { slug: row.workspace, name: row.workspaceName } };
      try {
        const body = await clientFor(ctx, box(ctx).open(row.apiKeyEnc, userId)).workspace(row.workspace);
        const all = (body.workspace?.projects ?? []).filter((p) => p && typeof p.id === 'string');
        const projects = all.slice(0, PROJECT_LIMIT).map((p) => presentProject(p, 'workspace'));
        logSkipped(ctx, projects);
        return { ...base, projects, more: Math.max(0, all.length - PROJECT_LIMIT), error: null };
      } catch (err) {
        return { ...base, projects: [], more: 0, error: problem(err) };
      }
    }),
  );
  const subscriptions = await Promise.all(
    subs.map(async (row) => {
      const [ws = '', slug = ''] = row.ref.split('/');
      try {
        const { apiKey } = await access(ctx, userId, ws, slug);
        const { project } = await clientFor(ctx, apiKey).project(ws, slug);
        const presented = presentProject(project, 'universe');
        logSkipped(ctx, [presented]);
        return { subscriptionId: row.id, ref: row.ref, project: presented, error: null };
      } catch (err) {
        return { subscriptionId: row.id, ref: row.ref, project: null, error: problem(err) };
      }
    }),
  );
  return { workspaces, subscriptions };
}

export async function projectDetail(ctx: AppContext, userId: string, workspace: string, project: string) {
  const { apiKey, source } = await access(ctx, userId, workspace, project);
  const { project: p, versions } = await clientFor(ctx, apiKey).project(workspace, project);
  const imports = new Map((await repo.imports(ctx.db, userId, { workspace, project })).map((r) => [r.version, r]));
  const presented = presentProject(p, source);
  logSkipped(ctx, [presented]);
  const list = await Promise.all(
    versions
      .filter((v) => v && typeof v.id === 'string' && Number.isFinite(versionNumber(v)))
      .sort((a, b) => versionNumber(b) - versionNumber(a))
      .map(async (v) => {
        const row = imports.get(versionNumber(v));
        return presentVersion(v, row ? await withDataset(ctx, userId, row) : null);
      }),
  );
  // the listing's count can lag; the versions list is the truth
  return {
    project: {
      ...presented,
      versions: Math.max(presented.versions, list.length),
      status: presented.images <= 0 ? presented.status : list.length ? ('Ready' as const) : ('No Version' as const),
    },
    versions: list,
  };
}

/** Spec §7: previews with limit 5, from the image search, with each image's boxes for drawing. */
export async function previews(ctx: AppContext, userId: string, workspace: string, project: string): Promise<RoboflowPreview[]> {
  const { apiKey } = await access(ctx, userId, workspace, project);
  const client = clientFor(ctx, apiKey);
  const found = await client.search(workspace, project, PREVIEW_LIMIT);
  return Promise.all(
    found.map(async (hit) => {
      const img = await client.image(workspace, project, hit.id);
      const url = img.urls?.thumb ?? img.urls?.original;
      const bytes = url ? await client.imageBytes(url) : null;
      return {
        id: hit.id,
        name: img.name ?? hit.name ?? hit.id,
        split: img.split ?? hit.split ?? null,
        labels: img.labels ?? hit.labels ?? [],
        width: Number(img.annotation?.width ?? 0),
        height: Number(img.annotation?.height ?? 0),
        image: bytes ? `data:${bytes.type};base64,${bytes.bytes.toString('base64')}` : null,
        boxes: (img.annotation?.boxes ?? []).map((b) => ({
          label: String(b.label),
          x: Number(b.x),
          y: Number(b.y),
          width: Number(b.width),
          height: Number(b.height),
          ...(b.points ? { points: b.points } : {}),
        })),
      };
    }),
  );
}

/** The project's icon through the server: the page's CSP allows same-origin images only. */
export async function projectIcon(ctx: AppContext, userId: string, workspace: string, project: string) {
  const { apiKey } = await access(ctx, userId, workspace, project);
  const client = clientFor(ctx, apiKey);
  const { project: p } = await client.project(workspace, project);
  const url = typeof p.icon === 'string' ? p.icon : (p.icon?.thumb ?? p.icon?.original);
  const bytes = url ? await client.imageBytes(url) : null;
  if (!bytes) throw errors.notFound('Icon');
  return bytes;
}

// ---------- imports ----------

async function withDataset(ctx: AppContext, userId: string, row: ImportRow): Promise<RoboflowImport> {
  if (!row.datasetId) return presentImport(row, null);
  const ds = await readableDataset(ctx, userId, row.datasetId).catch(() => null);
  if (!ds || ds.deletedAt) return presentImport(row, null);
  const [presented] = await presentDatasets(ctx, userId, [ds]);
  return presentImport(row, { id: ds.id, status: ds.status, name: ds.name, progress: presented?.progress ?? null });
}

/** Every import of the user with its dataset's state: one query for the imports, the datasets and each kind of related row (polled every second while one runs). */
export async function listImports(ctx: AppContext, userId: string) {
  const rows = await repo.imports(ctx.db, userId);
  const datasets = await readableDatasets(
    ctx,
    userId,
    rows.flatMap((r) => (r.datasetId ? [r.datasetId] : [])),
  );
  const presented = new Map((await presentDatasets(ctx, userId, datasets)).map((d) => [d.id, d]));
  return rows.map((row) => {
    const d = row.datasetId ? presented.get(row.datasetId) : undefined;
    return presentImport(row, d ? { id: d.id, status: d.status, name: d.meta.name, progress: d.progress ?? null } : null);
  });
}

/**
 * Import one version. Idempotent: the (user, project, version) key gives one row and so one
 * dataset; asking again returns it, or re-runs it when it failed, was cancelled or its dataset is gone.
 */
export async function startImport(ctx: AppContext, userId: string, workspace: string, project: string, version: number) {
  const { apiKey, source } = await access(ctx, userId, workspace, project);
  const { project: p, versions } = await clientFor(ctx, apiKey).project(workspace, project);
  const reason = unsupportedReason(p);
  if (reason) {
    ctx.log.info({ project: p.id, type: p.type }, 'roboflow project type not imported, skipped');
    throw new AppError(400, ErrorCode.RoboflowUnsupportedType, reason);
  }
  if (versions.length === 0)
    throw new AppError(400, ErrorCode.RoboflowNoVersions, `"${p.name}" has no versions yet. Generate a version in Roboflow, then import it.`);
  const v = versions.find((x) => versionNumber(x) === version);
  if (!v) throw new AppError(404, ErrorCode.RoboflowNotFound, `Version ${version} of "${p.name}" was not found on Roboflow.`);
  if (Number(v.images ?? 0) <= 0) throw new AppError(400, ErrorCode.RoboflowNoImages, `Version ${version} of "${p.name}" has no images.`);
  const now = ctx.clock.now();
  const { row, created } = await repo.insertImport(ctx.db, {
    id: newId(),
    userId,
    source,
    workspace,
    project,
    version,
    format: p.type === 'classification' ? 'folder' : 'yolov8',
    status: 'queued',
    createdAt: now,
    updatedAt: now,
  });
  const existing = row ?? (await repo.importOf(ctx.db, userId, workspace, project, version))!;
  if (!created) {
    const current = await withDataset(ctx, userId, existing);
    const rerun = existing.status === 'failed' || existing.status === 'cancelled' || (existing.status === 'imported' && !current.dataset);
    if (!rerun) return { import: current, created: false };
    await rearm(ctx, existing, { resetDataset: existing.status === 'imported' });
  } else {
    await ctx.jobs.enqueue(IMPORT_QUEUE, { importId: existing.id }, { dedupeKey: importJobKey(existing.id), maxAttempts: 3 });
  }
  return { import: await withDataset(ctx, userId, (await repo.import(ctx.db, existing.id))!), created: true };
}

async function rearm(ctx: AppContext, row: ImportRow, opts: { resetDataset?: boolean } = {}) {
  await repo.updateImport(ctx.db, row.id, {
    status: 'queued',
    phase: null,
    done: 0,
    total: 0,
    error: null,
    errorCode: null,
    cancelRequestedAt: null,
    finishedAt: null,
    ...(opts.resetDataset ? { datasetId: null } : {}),
    updatedAt: ctx.clock.now(),
  });
  await ctx.jobs.enqueue(IMPORT_QUEUE, { importId: row.id }, { dedupeKey: importJobKey(row.id), maxAttempts: 3 });
}

export async function retryImport(ctx: AppContext, userId: string, id: string) {
  const row = integrationsPolicy.own(userId, await repo.import(ctx.db, id), 'Import');
  if (row.status !== 'failed' && row.status !== 'cancelled') throw errors.conflict('error/not-failed', 'Only a failed or cancelled import can be retried');
  await rearm(ctx, row);
  return withDataset(ctx, userId, (await repo.import(ctx.db, id))!);
}

/** Cancel: a queued import stops at once; a running one stops at its next check (within a second). */
export async function cancelImport(ctx: AppContext, userId: string, id: string) {
  const row = integrationsPolicy.own(userId, await repo.import(ctx.db, id), 'Import');
  if (row.status === 'imported') throw errors.conflict('error/already-imported', 'This version is already imported; delete the dataset instead');
  if (row.status === 'failed' || row.status === 'cancelled') return withDataset(ctx, userId, row);
  const now = ctx.clock.now();
  const updated = await repo.updateImport(ctx.db, id, {
    cancelRequestedAt: now,
    ...(row.status === 'queued' ? { status: 'cancelled' as const, finishedAt: now, phase: null } : {}),
    updatedAt: now,
  });
  return withDataset(ctx, userId, updated!);
}

/**
 * Re-sync: imports the versions newer than the newest one imported (the latest version when
 * nothing was imported yet); versions already imported are left alone.
 */
export async function sync(ctx: AppContext, userId: string, workspace: string, project: string) {
  const { apiKey } = await access(ctx, userId, workspace, project);
  const { project: p, versions } = await clientFor(ctx, apiKey).project(workspace, project);
  const reason = unsupportedReason(p);
  if (reason) throw new AppError(400, ErrorCode.RoboflowUnsupportedType, reason);
  if (versions.length === 0)
    throw new AppError(400, ErrorCode.RoboflowNoVersions, `"${p.name}" has no versions yet. Generate a version in Roboflow, then import it.`);
  const done = new Set((await repo.imports(ctx.db, userId, { workspace, project })).map((r) => r.version));
  const numbers = versions
    .filter((v) => Number(v.images ?? 0) > 0)
    .map(versionNumber)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const newest = Math.max(0, ...done);
  const wanted = done.size === 0 ? numbers.slice(-1) : numbers.filter((n) => n > newest && !done.has(n));
  const started: RoboflowImport[] = [];
  for (const n of wanted) started.push((await startImport(ctx, userId, workspace, project, n)).import);
  return { started, upToDate: wanted.length === 0 };
}
