import { isSafeName, UNSAFE_NAME_MESSAGE } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { datasetById } from '../datasets/datasets.training-export.js';
import { recordLineage, versionForWorkingRun } from '../dataset-versions/index.js';
import { runDatasetOf } from './training.downloads.js';
import { createModel, ownedModel } from '../models/models.service.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { createProject } from '../projects/projects.service.js';
import { slugify } from '../projects/slugs.js';
import { configFromTrainArgs, projectSlugOf } from './training.args.js';
import { fileOf } from './training.checkpoints.js';
import { numericMetrics } from './training.metrics.js';
import { modelRef, runChanged } from './training.events.js';
import { trainingRepository, type Protocol, type TrainingPatch } from './training.repository.js';
import { applyRunEvent, sweepSilentRuns } from './run-lifecycle.js';

/**
 * A run's start, signs of life and end, as any client reports them (ADR 0020). Dates (spec §4,
 * computed by modelStatus()): train.initialized and train.start when a run begins, train.heartbeat
 * on every sign of life, train.end when the run ends. The state moves only through run-lifecycle.ts.
 * Nothing here ever deletes reported data; a run that goes quiet times out, and a late event revives it.
 */

// ---- model resolution -------------------------------------------------------------------------

/**
 * The model a client may report for: its owner's key only. Others' private models stay hidden (404);
 * another user's readable model is a 403, as everywhere else in the API.
 */
export async function reportableModel(ctx: AppContext, userId: string, modelId: string): Promise<ModelRow> {
  const row = await ownedModel(ctx, userId, modelId, 'train');
  if (row.deletedAt) throw errors.notFound('Model');
  return row;
}

/** How a client names the model it reports for: its id or, for early Platform clients, project + run name. */
export type ModelRef = string | { modelId?: string | null; project?: string | null; name?: string | null };

/** The model an event is about: by `modelId`, or (8.4.115–8.4.119 early chunks) by project + name. */
export async function reportedModel(ctx: AppContext, userId: string, ref: ModelRef): Promise<ModelRow> {
  if (typeof ref === 'string') return reportableModel(ctx, userId, ref);
  if (ref.modelId) return reportableModel(ctx, userId, ref.modelId);
  if (!ref.project) throw errors.validation('modelId or project and name are required');
  const project = await trainingRepository.liveProjectBySlug(ctx.db, userId, projectSlugOf(ref.project).slug);
  const row = project ? await trainingRepository.latestLiveModelByName(ctx.db, project.id, ref.name ?? 'train') : null;
  if (!row) throw errors.notFound('Model');
  return row;
}

/** The project a run names: by slug, else a live one of that display name (a trashed project keeps its slug), else a new one. */
async function projectForRun(ctx: AppContext, userId: string, projectArg: string) {
  const { slug, name } = projectSlugOf(projectArg);
  return (
    (await trainingRepository.liveProjectBySlug(ctx.db, userId, slug)) ??
    (await trainingRepository.liveProjectByName(ctx.db, userId, name)) ??
    createProject(ctx, userId, { name })
  );
}

/** A model made in the web app (train dialog) that no client has reported for yet. */
async function unstartedModel(ctx: AppContext, userId: string, projectId: string, slug: string) {
  const row = await modelQueries.bySlug(ctx.db, userId, projectId, slug);
  if (!row || row.deletedAt || row.trainStart || row.trainEnd || row.hubStatus !== 'new') return null;
  // A cloud run queued for it (a first run, or training again: ADR 0020) is the run now starting.
  const run = await trainingRepository.get(ctx.db, row.id);
  return !run || run.outcome === 'queued' ? row : null;
}

// ---- the run ------------------------------------------------------------------------------------

/** The run row of a model (null before any client reported). */
export async function runOf(ctx: AppContext, modelId: string) {
  return trainingRepository.get(ctx.db, modelId);
}

export async function cancelRequested(ctx: AppContext, modelId: string) {
  return Boolean((await trainingRepository.get(ctx.db, modelId))?.cancelRequestedAt);
}

/**
 * A sign of life from the client (the lifecycle's `report`, ADR 0020): refreshes train.heartbeat (the
 * first one of a run sets train.initialized and train.start, and the HUB status says training); a
 * timed-out run is running again. An ended run keeps its dates: HUB heartbeats go on after the final
 * upload until the Python process exits (hub-protocol §5.5).
 */
export async function touchRun(ctx: AppContext, model: ModelRow, protocol: Protocol, extra: TrainingPatch = {}) {
  const now = ctx.clock.now();
  const applied = await applyRunEvent(ctx, model.id, protocol, { type: 'report' }, { lastEventAt: now, ...extra });
  if (!applied) return { model, run: null };
  let current = applied.model;
  if (!applied.change && applied.run.outcome === 'running' && !current.trainEnd) {
    current =
      (await modelQueries.update(ctx.db, model.id, {
        trainHeartbeat: now,
        trainInitialized: current.trainInitialized ?? now,
        trainStart: current.trainStart ?? now,
        ...(current.hubStatus === 'new' ? { hubStatus: 'training' as const } : {}),
        updatedAt: now,
      })) ?? current;
  }
  if (!model.trainStart && current.trainStart) {
    // A HUB or cloud run of a model made with a dataset: it trains on the working state's version (ADR 0038).
    if (!current.datasetVersionId) await recordRunVersion(ctx, current, null);
    await ctx.events.emit('training.started', model.userId, { model: modelRef(model), protocol });
  }
  // Timeout → Training is a status change pages show.
  if (applied.change?.from === 'timeout') await runChanged(ctx, current);
  return { model: current, run: applied.run };
}

/** A client began a new run of a model it reported for before (a HUB process resuming from its last checkpoint). */
export async function resumeRun(ctx: AppContext, modelId: string, protocol: Protocol, patch: TrainingPatch) {
  await applyRunEvent(ctx, modelId, protocol, { type: 'start' }, { ...patch, lastEventAt: ctx.clock.now() });
}

/** An epoch checkpoint makes an unfinished model resumable (HUB status "training"). */
export async function markResumable(ctx: AppContext, model: ModelRow) {
  if (model.hubStatus === 'trained') return model;
  const now = ctx.clock.now();
  return (await modelQueries.update(ctx.db, model.id, { hubStatus: 'training', updatedAt: now })) ?? model;
}

/** What a run's start says: where it reports (project and run name), its args, and what they name. */
export interface RunStart {
  project: string;
  name: string;
  trainArgs: Record<string, unknown>;
  epochsTotal: number | null;
  environment: Record<string, unknown> | null;
  /** The dataset the run trains on, when the client named one of ours. */
  dataset: { owner: string; slug: string } | null;
  /** What the client called its data when it is not one of ours (a local yaml). */
  dataArg: string | null;
  architecture?: { name: string };
  parent?: { name: string; url?: string };
  task: string | null;
}

/**
 * Lineage (ADR 0038): the version a run trains on goes on its model and its run. A run that named a
 * version (or `ul://…/slug`, the latest) has it; a model made with a dataset and trained on its working
 * state gets the newest version, saved now when the dataset changed since.
 */
async function recordRunVersion(ctx: AppContext, model: ModelRow, version: Awaited<ReturnType<typeof versionForWorkingRun>> | null) {
  if (!version && model.datasetId) {
    const dataset = await datasetById(ctx, model.datasetId);
    if (dataset && !dataset.deletedAt && dataset.processedAt) version = await versionForWorkingRun(ctx, dataset, model.name).catch(() => null);
  }
  if (version) await recordLineage(ctx, model.id, version);
}

/**
 * A run starts: finds or creates the project and the model it reports into. A model made in the web
 * app (train dialog) and never reported to takes this run: the snippet the dialog shows names it
 * (`name=<model slug>`). Any other name, or a model that already ran, gets a new model with the next
 * free slug. Answers the model and the run's id.
 */
export async function startRun(ctx: AppContext, userId: string, protocol: Protocol, input: RunStart) {
  const project = await projectForRun(ctx, userId, input.project);
  const runName = input.name.trim() || 'train';
  if (!isSafeName(runName)) throw errors.validation(`name: ${UNSAFE_NAME_MESSAGE}`);
  const args = input.trainArgs;
  // `ul://owner/datasets/slug[:vN]`: the dataset and the version the run reads (ADR 0038).
  const named = input.dataset ? await runDatasetOf(ctx, userId, input.dataset.owner, input.dataset.slug) : null;
  const dataset = named?.dataset ?? null;
  const runId = `run_${newId()}`;
  let model: ModelRow | null = await unstartedModel(ctx, userId, project.id, slugify(runName));
  if (model) {
    model = (await modelQueries.update(ctx.db, model.id, {
      config: { ...(model.config as object), ...configFromTrainArgs(args) },
      datasetId: model.datasetId ?? dataset?.id ?? null,
      datasetName: model.datasetName ?? dataset?.name ?? null,
      task: model.task ?? input.task,
      updatedAt: ctx.clock.now(),
    }))!;
  }
  // Two starts racing for the same slug: the unique index decides, the loser takes the next slug.
  for (let attempt = 0; !model; attempt++) {
    try {
      model = await createModel(ctx, {
        userId,
        projectId: project.id,
        name: runName,
        config: configFromTrainArgs(args),
        datasetId: dataset?.id ?? null,
        datasetName: dataset?.name ?? input.dataArg?.slice(0, 500) ?? null,
        architecture: input.architecture,
        parent: input.parent,
        task: input.task,
      });
    } catch (err) {
      if (attempt >= 2 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
  await applyRunEvent(
    ctx,
    model.id,
    protocol,
    { type: 'start' },
    {
      runId,
      // A new run starts clean: a Stop pressed on an earlier run of this model does not carry over.
      cancelRequestedAt: null,
      cancelRequestedBy: null,
      trainArgs: args,
      environment: input.environment,
      epochsTotal: input.epochsTotal,
      lastEventAt: ctx.clock.now(),
    },
  );
  await recordRunVersion(ctx, model, named?.version ?? null);
  const touched = await touchRun(ctx, model, protocol);
  // Pages already open on this model (the train dialog's) move to Initializing/Training now.
  await runChanged(ctx, touched.model);
  return { model: touched.model, runId };
}

/**
 * The client's end of a run: train.end is set (spec §4 Trained), the HUB view says "trained" when
 * best weights exist, and the outcome says whether a Stop was honoured: a run that reached its last
 * epoch completed, whatever was pressed (the HUB client cannot be told to stop). Class names come
 * from the client, else from the model's dataset (ADR 0014): a client-trained model is never left
 * with `names: []` when they are known. Repeated ends are harmless.
 */
export async function finishRun(
  ctx: AppContext,
  model: ModelRow,
  protocol: Protocol,
  input: { finalMetrics?: Record<string, unknown> | null; epoch?: number | null; names?: string[] | null; extra?: TrainingPatch },
) {
  const now = ctx.clock.now();
  const run = await trainingRepository.get(ctx.db, model.id);
  const best = await fileOf(ctx, model.id, 'best');
  const metrics = input.finalMetrics ? numericMetrics(input.finalMetrics) : null;
  const epochsTotal = run?.epochsTotal ?? configuredEpochs(model);
  const epochsDone = Math.max(model.epochsDone, input.epoch !== undefined && input.epoch !== null ? input.epoch + 1 : 0);
  const ranAllEpochs = epochsTotal !== null && epochsDone >= epochsTotal;
  const stopped = Boolean(run?.cancelRequestedAt) && !ranAllEpochs;
  const names = input.names?.length ? input.names : model.names.length ? null : await datasetClassNames(ctx, model.datasetId);
  // The lifecycle decides the state: an end after a Stop (or of a run already Stopped) is Stopped.
  const applied = await applyRunEvent(
    ctx,
    model.id,
    protocol,
    { type: 'end', stopped },
    {
      lastEventAt: now,
      ...(input.finalMetrics ? { finalMetrics: input.finalMetrics } : {}),
      ...input.extra,
    },
  );
  const outcome = applied?.run.outcome === 'cancelled' ? 'cancelled' : 'completed';
  const updated = await modelQueries.update(ctx.db, model.id, {
    trainEnd: model.trainEnd ?? now,
    trainStart: model.trainStart ?? now,
    hubStatus: best ? 'trained' : model.hubStatus,
    ...(metrics && Object.keys(metrics).length ? { bestMetrics: metrics } : {}),
    ...(input.epoch !== undefined && input.epoch !== null ? { epochsDone: Math.max(model.epochsDone, input.epoch + 1) } : {}),
    ...(names?.length ? { names } : {}),
    updatedAt: now,
  });
  await runChanged(ctx, updated ?? model);
  if (!model.trainEnd) {
    await ctx.events.emit('training.completed', model.userId, {
      model: modelRef(model),
      outcome,
      bestMetrics: (updated ?? model).bestMetrics ?? null,
      epochsDone: (updated ?? model).epochsDone,
    });
  }
  return updated ?? model;
}

/** The epochs the model was configured to train (HUB runs: the model's config), when known. */
export function configuredEpochs(model: Pick<ModelRow, 'config'>): number | null {
  const epochs = (model.config as { epochs?: unknown } | null)?.epochs;
  return typeof epochs === 'number' && Number.isInteger(epochs) && epochs > 0 ? epochs : null;
}

/** The class names of a processed dataset (its stats), or null. */
async function datasetClassNames(ctx: AppContext, datasetId: string | null): Promise<string[] | null> {
  const dataset = datasetId ? await datasetById(ctx, datasetId) : null;
  const classes = (dataset?.stats as { summary?: { classes?: unknown } } | null)?.summary?.classes;
  return Array.isArray(classes) && classes.length ? classes.map(String) : null;
}

/**
 * Times out runs that stopped reporting without an end (the client crashed, was killed or lost its
 * network) once they are silent past the spec's windows (ADR 0020). Dates, files and metrics stay,
 * and any later event from the client makes the run Training again.
 */
export async function markStaleRuns(ctx: AppContext): Promise<string[]> {
  const marked = await sweepSilentRuns(ctx);
  for (const id of marked) {
    const model = await modelQueries.byId(ctx.db, id);
    if (model) await runChanged(ctx, model);
  }
  return marked;
}
