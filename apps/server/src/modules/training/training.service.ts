import type { Readable } from 'node:stream';
import { ErrorCode, isSafeName, topics, UNSAFE_NAME_MESSAGE, type RealtimeEventData } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { datasetById, datasetBySlug, datasetNdjson, datasetZipKey, datasetZipName } from '../datasets/datasets.training-export.js';
import { fileUrl } from '../models/models.presenter.js';
import { createModel, ownedModel, readableModel } from '../models/models.service.js';
import { modelItem, modelsPolicy } from '../models/models.policy.js';
import { modelsRepository, type ModelRow } from '../models/models.repository.js';
import { accessItem, itemLinkVersion, linkGrants, linkVersionOf, may } from '../access/index.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { createProject } from '../projects/projects.service.js';
import { slugify } from '../projects/slugs.js';
import { usersRepository } from '../users/users.repository.js';
import { configFromTrainArgs, hubStoredName, modelBlobKey, modelBlobPrefix, platformStoredName, projectSlugOf, runArgsOf, storedKind } from './training.args.js';
import { signCompatUrl } from '../../platform/http/signed-links.js';
import { streamIntoStore } from './training.files.js';
import { trainingRepository, type Protocol, type TrainingPatch, type TrainingRow } from './training.repository.js';
import { applyRunEvent, sweepSilentRuns } from './run-lifecycle.js';

/**
 * The training lifecycle as reported by the user's own ultralytics client. Sightline never trains:
 * both wire protocols (compat/hub, compat/platform) are thin adapters whose handlers each call one
 * function of this file, so the model's dates, files, metrics and realtime events behave the same
 * whichever client reported. Resolving the model a client names (by id, or by project and run
 * name), creating it when a run starts, and promoting uploaded weights all happen here.
 *
 * Dates (spec §4, computed by modelStatus()): train.initialized and train.start when a run begins,
 * train.heartbeat on every sign of life, train.end when the run ends. The run's state (running,
 * completed, Stopped, Failed, Timeout) moves only through run-lifecycle.ts (ADR 0020), which cloud
 * runs share. Nothing here ever deletes reported data; a run that goes quiet times out, and a late
 * event revives it.
 */

export type { Protocol, TrainingRow };

/** HUB clients heartbeat every 300 s (hub-protocol §5.5): a beat after longer than this starts a new status push. */
export const HUB_STALE_AFTER_MS = 15 * 60_000;
/** Checkpoints carry optimizer state (~3× the weights): allow big ones, the storage quota still applies. */
export const MAX_CHECKPOINT_BYTES = 8 * 1024 ** 3;
/** Where the Platform client PUTs its checkpoints (signed URLs handed out by issueCheckpointUpload). */
export const CHECKPOINT_UPLOAD_PREFIX = '/v1/compat/uploads/';
const UPLOAD_URL_TTL_MS = 24 * 3_600_000;
const MODEL_URL_TTL_MS = 24 * 3_600_000;
const MAX_CHUNK_CHARS = 256 * 1024;

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

/** How a client names the model it reports for: its id (HUB, most Platform calls) or, for early Platform clients, project + run name. */
export type ModelRef = string | { modelId?: string | null; project?: string | null; name?: string | null };

/** The model an event is about: by `modelId`, or (8.4.115–8.4.119 early chunks) by project + name. */
async function reportedModel(ctx: AppContext, userId: string, ref: ModelRef): Promise<ModelRow> {
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
  const row = await modelsRepository.bySlug(ctx.db, userId, projectId, slug);
  if (!row || row.deletedAt || row.trainStart || row.trainEnd || row.hubStatus !== 'new') return null;
  // A cloud run queued for it (a first run, or training again: ADR 0020) is the run now starting.
  const run = await trainingRepository.get(ctx.db, row.id);
  return !run || run.outcome === 'queued' ? row : null;
}

// ---- the run's lifecycle ----------------------------------------------------------------------

/** Small realtime payloads (the bus caps NOTIFY at ~8 kB): the web app refetches what it shows. */
export async function publishModel<E extends 'model.updated' | 'model.metrics' | 'model.console'>(
  ctx: AppContext,
  row: Pick<ModelRow, 'id' | 'userId' | 'projectId'>,
  event: E,
  ...extra: Partial<Omit<RealtimeEventData<E>, 'id' | 'projectId'>> extends Omit<RealtimeEventData<E>, 'id' | 'projectId'> ? [extra?: Omit<RealtimeEventData<E>, 'id' | 'projectId'>] : [extra: Omit<RealtimeEventData<E>, 'id' | 'projectId'>]
) {
  const data = { id: row.id, projectId: row.projectId, ...extra[0] } as RealtimeEventData<E>;
  await ctx.bus.publish(topics.model(row.id), event, data);
  if (event === 'model.updated') await ctx.bus.publish(topics.userModels(row.userId), 'model.updated', { id: row.id, projectId: row.projectId });
}

/** Creates or updates the run row; `patch` values win, `insertOnly` values only seed a new row. */
export const upsertRun = trainingRepository.upsert;

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
      (await modelsRepository.update(ctx.db, model.id, {
        trainHeartbeat: now,
        trainInitialized: current.trainInitialized ?? now,
        trainStart: current.trainStart ?? now,
        ...(current.hubStatus === 'new' ? { hubStatus: 'training' as const } : {}),
        updatedAt: now,
      })) ?? current;
  }
  if (!model.trainStart && current.trainStart) await ctx.events.emit('training.started', model.userId, { model: modelRef(model), protocol });
  // Timeout → Training is a status change pages show.
  if (applied.change?.from === 'timeout') await publishModel(ctx, current, 'model.updated');
  return { model: current, run: applied.run };
}

/** What webhooks say about a model (issue 15). */
const modelRef = (m: ModelRow) => ({ id: m.id, name: m.name, slug: m.slug, projectId: m.projectId });

/** HUB heartbeat: answers the agentId the client echoes next time (one per model, kept across beats). */
async function recordHeartbeat(ctx: AppContext, model: ModelRow, body: { agent?: unknown; agentId?: unknown }) {
  const before = await trainingRepository.get(ctx.db, model.id);
  const agentId = before?.agentId ?? `agent${newId()}`;
  const agent = typeof body.agent === 'string' ? body.agent.slice(0, 100) : (before?.agent ?? null);
  const wasLive = model.trainHeartbeat !== null && ctx.clock.now().getTime() - model.trainHeartbeat.getTime() < HUB_STALE_AFTER_MS;
  // A process's first heartbeat carries no agentId (hub-protocol §5.5): after earlier reports it is a
  // resume, a new run of the model (from its last checkpoint; after a Stop, a failure or a timeout
  // too, ADR 0020). A Stop pressed on the run before applies to that run only.
  const resumed = Boolean(before) && (body.agentId === null || body.agentId === undefined) && before!.outcome !== 'completed' && (!model.trainEnd || before!.outcome !== 'running');
  if (resumed) {
    const now = ctx.clock.now();
    await applyRunEvent(ctx, model.id, 'hub', { type: 'start' }, { agent, agentId, cancelRequestedAt: null, cancelRequestedBy: null, lastEventAt: now });
  }
  const { model: updated } = await touchRun(ctx, (await modelsRepository.byId(ctx.db, model.id)) ?? model, 'hub', { agent, agentId });
  // Only status transitions are worth a push; a beat every 300 s of a live run changes nothing visible.
  if (!wasLive || !before) await publishModel(ctx, updated, 'model.updated');
  return agentId;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const hasVal = (m: Record<string, unknown>) => Object.keys(m).some((k) => k.startsWith('val/'));

/** Fitness as ultralytics computes it (0.1·mAP50 + 0.9·mAP50-95), or top-1 accuracy for classify. */
export function fitnessOf(m: Record<string, unknown>): number | null {
  if (num(m.fitness)) return m.fitness;
  for (const suffix of ['(B)', '(M)', '(P)', '(OBB)']) {
    const a = m[`metrics/mAP50${suffix}`];
    const b = m[`metrics/mAP50-95${suffix}`];
    if (num(a) && num(b)) return 0.1 * a + 0.9 * b;
  }
  return num(m['metrics/accuracy_top1']) ? m['metrics/accuracy_top1'] : null;
}

function numericMetrics(m: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) if (num(v) && k.startsWith('metrics/')) out[k] = v;
  return out;
}

/**
 * Stores per-epoch metrics, idempotent per epoch. The client re-validates best.pt after the last
 * epoch and reports that as one more epoch-end (traces README: the Platform client numbers it last+1,
 * the HUB client reuses the last epoch's key). Those objects carry no `val/*` losses, so when the
 * epochs around them do, they are kept as the run's final metrics instead of overwriting an epoch or
 * adding a phantom one. Anything else is last-write-wins per epoch.
 */
async function recordEpochMetrics(ctx: AppContext, model: ModelRow, protocol: Protocol, entries: Array<{ epoch: number; metrics: Record<string, unknown> }>, extra: TrainingPatch = {}) {
  const now = ctx.clock.now();
  let final: Record<string, unknown> | null = null;
  const updated = await ctx.db.transaction(async (tx) => {
    // One writer per model at a time: the HUB client posts metrics and checkpoints from separate threads.
    await trainingRepository.lockModel(tx, model.id);
    const existing = await trainingRepository.metrics(tx, model.id);
    const byEpoch = new Map(existing.map((r) => [r.epoch, r.metrics]));
    const maxEpoch = existing.length ? existing[existing.length - 1]!.epoch : -1;
    for (const { epoch, metrics } of entries.sort((a, b) => a.epoch - b.epoch)) {
      const same = byEpoch.get(epoch);
      const previous = byEpoch.get(epoch - 1);
      // The HUB client reuses the last epoch's key, so only Platform's last+1 numbering marks a new epoch as final.
      const isFinal = !hasVal(metrics) && ((same !== undefined && hasVal(same)) || (protocol === 'platform' && !same && epoch === maxEpoch + 1 && previous !== undefined && hasVal(previous)));
      if (isFinal) {
        final = metrics;
        continue;
      }
      await trainingRepository.upsertMetrics(tx, model.id, epoch, metrics, now);
      byEpoch.set(epoch, metrics);
    }
    const rows = [...byEpoch.entries()].sort((a, b) => a[0] - b[0]);
    let bestEpoch: number | null = null;
    let bestFitness = -Infinity;
    for (const [epoch, m] of rows) {
      const f = fitnessOf(m);
      if (f !== null && f >= bestFitness) {
        bestFitness = f;
        bestEpoch = epoch;
      }
    }
    const bestMetrics = final ? numericMetrics(final) : bestEpoch !== null ? numericMetrics(byEpoch.get(bestEpoch)!) : model.bestMetrics;
    const lastEpoch = rows.length ? rows[rows.length - 1]![0] : -1;
    await upsertRun(tx, model.id, protocol, {
      ...extra,
      ...(final ? { finalMetrics: final } : {}),
      ...(bestEpoch !== null ? { bestEpoch, bestFitness } : {}),
      lastEventAt: now,
      staleAt: null,
      updatedAt: now,
    });
    return modelsRepository.update(tx, model.id, {
      epochsDone: Math.max(model.epochsDone, lastEpoch + 1),
      bestMetrics: bestMetrics && Object.keys(bestMetrics).length ? bestMetrics : model.bestMetrics,
      ...(model.trainEnd ? {} : { trainHeartbeat: now, trainInitialized: model.trainInitialized ?? now, trainStart: model.trainStart ?? now }),
      updatedAt: now,
    });
  });
  const epochs = entries.map((e) => e.epoch);
  await publishModel(ctx, updated ?? model, 'model.metrics', { epochs: epochs.slice(0, 50), final: final !== null });
  const last = entries[entries.length - 1];
  if (last) await ctx.events.emit('training.epoch', model.userId, { model: modelRef(model), epoch: last.epoch, epochsDone: (updated ?? model).epochsDone, metrics: numericMetrics(last.metrics), final: final !== null });
  return updated ?? model;
}

/**
 * Makes an uploaded blob the model's file of `kind`, in one transaction with the model's byte total,
 * then removes the blob it replaced. Blob first, row second: a client dying mid-upload never leaves a
 * row pointing at a missing or partial file.
 */
export async function promoteFile(ctx: AppContext, model: ModelRow, file: { kind: 'best' | 'last'; key: string; name: string; bytes: number; epoch: number | null }, opts: { onlyIfNewer?: boolean } = {}) {
  const now = ctx.clock.now();
  let skipped = false;
  const previous = await ctx.db.transaction(async (tx) => {
    await trainingRepository.lockModel(tx, model.id);
    const old = await trainingRepository.file(tx, model.id, file.kind);
    // Checkpoint uploads run in parallel client threads: an older epoch finishing last must not win.
    if (opts.onlyIfNewer && old && old.epoch !== null && file.epoch !== null && old.epoch > file.epoch) {
      skipped = true;
      return null;
    }
    await modelsRepository.upsertFile(tx, { modelId: model.id, kind: file.kind, name: file.name, blobKey: file.key, bytes: file.bytes, epoch: file.epoch, createdAt: now });
    await modelsRepository.refreshBytes(tx, model.id);
    await trainingRepository.touchModel(tx, model.id, now);
    return old ?? null;
  });
  if (skipped) {
    await ctx.blobs.delete(file.key).catch(() => undefined);
    return false;
  }
  if (previous && previous.blobKey !== file.key && !(await trainingRepository.blobInUse(ctx.db, previous.blobKey))) {
    await ctx.blobs.delete(previous.blobKey).catch((err: unknown) => ctx.log.warn({ err, key: previous.blobKey }, 'could not delete replaced model file'));
  }
  return true;
}

export async function fileOf(ctx: AppContext, modelId: string, kind: string) {
  return trainingRepository.file(ctx.db, modelId, kind);
}

/** An epoch checkpoint makes an unfinished model resumable (HUB status "training"). */
async function markResumable(ctx: AppContext, model: ModelRow) {
  if (model.hubStatus === 'trained') return model;
  const now = ctx.clock.now();
  return (await modelsRepository.update(ctx.db, model.id, { hubStatus: 'training', updatedAt: now })) ?? model;
}

/**
 * The client's end of a run: train.end is set (spec §4 Trained), the HUB view says "trained" when
 * best weights exist, and the outcome says whether a Stop was honoured: a run that reached its last
 * epoch completed, whatever was pressed (the HUB client cannot be told to stop). Class names come
 * from the client, else from the model's dataset (issue 16): a client-trained model is never left
 * with `names: []` when they are known. Repeated ends are harmless.
 */
async function finishRun(
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
  const applied = await applyRunEvent(ctx, model.id, protocol, { type: 'end', stopped }, {
    lastEventAt: now,
    ...(input.finalMetrics ? { finalMetrics: input.finalMetrics } : {}),
    ...input.extra,
  });
  const outcome = applied?.run.outcome === 'cancelled' ? 'cancelled' : 'completed';
  const updated = await modelsRepository.update(ctx.db, model.id, {
    trainEnd: model.trainEnd ?? now,
    trainStart: model.trainStart ?? now,
    hubStatus: best ? 'trained' : model.hubStatus,
    ...(metrics && Object.keys(metrics).length ? { bestMetrics: metrics } : {}),
    ...(input.epoch !== undefined && input.epoch !== null ? { epochsDone: Math.max(model.epochsDone, input.epoch + 1) } : {}),
    ...(names?.length ? { names } : {}),
    updatedAt: now,
  });
  await publishModel(ctx, updated ?? model, 'model.updated');
  if (!model.trainEnd) {
    await ctx.events.emit('training.completed', model.userId, { model: modelRef(model), outcome, bestMetrics: (updated ?? model).bestMetrics ?? null, epochsDone: (updated ?? model).epochsDone });
  }
  return updated ?? model;
}

/** The epochs the model was configured to train (HUB runs: the model's config), when known. */
function configuredEpochs(model: ModelRow): number | null {
  const epochs = (model.config as { epochs?: unknown } | null)?.epochs;
  return typeof epochs === 'number' && Number.isInteger(epochs) && epochs > 0 ? epochs : null;
}

/** The class names of a processed dataset (its stats), or null. */
async function datasetClassNames(ctx: AppContext, datasetId: string | null): Promise<string[] | null> {
  const dataset = datasetId ? await datasetById(ctx, datasetId) : null;
  const classes = (dataset?.stats as { summary?: { classes?: unknown } } | null)?.summary?.classes;
  return Array.isArray(classes) && classes.length ? classes.map(String) : null;
}

export async function cancelRequested(ctx: AppContext, modelId: string) {
  return Boolean((await trainingRepository.get(ctx.db, modelId))?.cancelRequestedAt);
}

/** Console chunks are keyed by the client's chunkId: out-of-order and repeated deliveries land once. */
async function appendConsole(ctx: AppContext, model: ModelRow, chunk: { chunkId: number; content: string; lineCount: number }) {
  await trainingRepository.insertConsole(ctx.db, { modelId: model.id, chunkId: chunk.chunkId, content: chunk.content.slice(0, MAX_CHUNK_CHARS), lineCount: chunk.lineCount, createdAt: ctx.clock.now() });
  await publishModel(ctx, model, 'model.console', { chunkId: chunk.chunkId });
}

/**
 * Times out runs that stopped reporting without an end (the client crashed, was killed or lost its
 * network) once they are silent past the spec's windows (ADR 0020). Dates, files and metrics stay,
 * and any later event from the client makes the run Training again.
 */
export async function markStaleRuns(ctx: AppContext): Promise<string[]> {
  const marked = await sweepSilentRuns(ctx);
  for (const id of marked) {
    const model = await modelsRepository.byId(ctx.db, id);
    if (model) await publishModel(ctx, model, 'model.updated');
  }
  return marked;
}

// ---- what the clients report (one function per adapter handler) -------------------------------

/** HUB heartbeat (hub-protocol §5.5): answers the agentId the client echoes next time. */
export async function reportHeartbeat(ctx: AppContext, userId: string, modelId: string, body: { agent?: unknown; agentId?: unknown }) {
  return recordHeartbeat(ctx, await reportableModel(ctx, userId, modelId), body);
}

/**
 * Per-epoch metrics from either client (HUB `type: metrics`, Platform `epoch_end`). Answers whether a
 * Stop was requested: the Platform client learns of it only here and keeps being told until the run
 * ends (traces README §4); the HUB client has no cancel channel.
 */
export async function reportMetrics(ctx: AppContext, userId: string, ref: ModelRef, protocol: Protocol, entries: Array<{ epoch: number; metrics: Record<string, unknown> }>, extra: TrainingPatch = {}) {
  const model = (await touchRun(ctx, await reportedModel(ctx, userId, ref), protocol)).model;
  await recordEpochMetrics(ctx, model, protocol, entries, extra);
  return { cancelled: await cancelRequested(ctx, model.id) };
}

/** A Platform console chunk: stored once per chunkId, and a sign of life. */
export async function reportConsole(ctx: AppContext, userId: string, ref: ModelRef, chunk: { chunkId: number; content: string; lineCount?: number | null }) {
  const model = await reportedModel(ctx, userId, ref);
  await appendConsole(ctx, model, { chunkId: chunk.chunkId, content: chunk.content, lineCount: chunk.lineCount ?? chunk.content.split('\n').length });
  await touchRun(ctx, model, 'platform');
}

/** Platform events we accept without storing (cloud-worker events, platform-protocol §4.2): the model must still be the caller's. */
export async function acknowledgeEvent(ctx: AppContext, userId: string, ref: ModelRef) {
  await reportedModel(ctx, userId, ref);
}

export interface RunStart {
  project?: string | null;
  name?: string | null;
  trainArgs: Record<string, unknown>;
  epochs?: number | string | null;
  environment?: Record<string, unknown> | null;
}

/**
 * Platform `training_started`: finds or creates the project and the model the run reports into. A
 * model made in the web app (train dialog) and never reported to takes this run: the snippet the
 * dialog shows names it (`name=<model slug>`). Any other name, or a model that already ran, gets a
 * new model with the next free slug.
 */
export async function startRun(ctx: AppContext, userId: string, input: RunStart) {
  const args = input.trainArgs;
  const projectArg = input.project ?? (typeof args.project === 'string' ? args.project : null);
  if (!projectArg || projectArg === 'None') throw errors.validation('project is required');
  const project = await projectForRun(ctx, userId, projectArg);
  const runName = (input.name ?? (typeof args.name === 'string' ? args.name : null) ?? 'train').trim() || 'train';
  if (!isSafeName(runName)) throw errors.validation(`name: ${UNSAFE_NAME_MESSAGE}`);
  const { dataArg, datasetRef, architecture, parent, task } = runArgsOf(args);
  const dataset = datasetRef ? await datasetBySlug(ctx, userId, datasetRef.owner, datasetRef.slug).catch(() => null) : null;
  const runId = `run_${newId()}`;
  let model: ModelRow | null = await unstartedModel(ctx, userId, project.id, slugify(runName));
  if (model) {
    model = (await modelsRepository.update(ctx.db, model.id, {
      config: { ...(model.config as object), ...configFromTrainArgs(args) },
      datasetId: model.datasetId ?? dataset?.id ?? null,
      datasetName: model.datasetName ?? dataset?.name ?? null,
      task: model.task ?? task,
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
        datasetName: dataset?.name ?? dataArg?.slice(0, 500) ?? null,
        architecture,
        parent,
        task,
      });
    } catch (err) {
      if (attempt >= 2 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
  const epochs = Number(input.epochs ?? args.epochs);
  await applyRunEvent(ctx, model.id, 'platform', { type: 'start' }, {
    runId,
    // A new run starts clean: a Stop pressed on an earlier run of this model does not carry over.
    cancelRequestedAt: null,
    cancelRequestedBy: null,
    trainArgs: args,
    environment: input.environment ?? null,
    epochsTotal: Number.isInteger(epochs) && epochs > 0 ? epochs : null,
    lastEventAt: ctx.clock.now(),
  });
  const touched = await touchRun(ctx, model, 'platform');
  // Pages already open on this model (the train dialog's) move to Initializing/Training now.
  await publishModel(ctx, touched.model, 'model.updated');
  return { model: touched.model, runId };
}

/** A modelPath the client echoes must be one of this model's uploads (no promoting someone else's blob). */
async function promoteUpload(ctx: AppContext, model: ModelRow, modelPath: string) {
  const prefix = modelBlobPrefix(model);
  if (!modelPath.startsWith(prefix) || modelPath.includes('..')) throw errors.validation('modelPath does not belong to this model');
  const head = await ctx.blobs.head(modelPath);
  if (!head) throw errors.validation('Nothing was uploaded to modelPath');
  const name = modelPath.slice(prefix.length);
  const kind = storedKind(model, name);
  const current = await fileOf(ctx, model.id, kind);
  if (current?.blobKey !== modelPath) await promoteFile(ctx, model, { kind, key: modelPath, name, bytes: head.bytes, epoch: null });
}

/** Platform `checkpoint_saved`: the upload at modelPath becomes the model's file. */
export async function reportCheckpoint(ctx: AppContext, userId: string, ref: ModelRef, data: { runId?: string | null; modelPath?: string | null }) {
  const model = await reportedModel(ctx, userId, ref);
  const run = await trainingRepository.get(ctx.db, model.id);
  if (data.runId && run?.runId && data.runId !== run.runId) throw errors.validation('runId does not belong to this model');
  if (!data.modelPath) throw errors.validation('checkpoint_saved: modelPath is required');
  await promoteUpload(ctx, model, data.modelPath);
  await touchRun(ctx, model, 'platform');
  return { modelPath: data.modelPath };
}

export interface RunEnd {
  results?: { metrics?: Record<string, unknown> | null; bestEpoch?: number | null; bestFitness?: number | null; modelPath?: string | null; [k: string]: unknown } | null;
  classNames?: string[] | null;
  plots?: unknown[] | null;
}

/** Platform `training_complete`: the final weights (when they arrived) are promoted and the run ends. */
export async function reportEnd(ctx: AppContext, userId: string, ref: ModelRef, data: RunEnd) {
  const model = await reportedModel(ctx, userId, ref);
  const results = data.results ?? {};
  if (results.modelPath) await promoteUpload(ctx, model, results.modelPath).catch((err: unknown) => ctx.log.warn({ err, modelId: model.id }, 'final modelPath not promoted'));
  const { metrics: finalMetrics, ...rest } = results;
  const current = (await modelsRepository.byId(ctx.db, model.id)) ?? model;
  await finishRun(ctx, current, 'platform', {
    finalMetrics: finalMetrics ?? null,
    names: data.classNames ?? null,
    extra: {
      results: rest,
      plots: data.plots ?? null,
      ...(typeof results.bestEpoch === 'number' ? { bestEpoch: results.bestEpoch } : {}),
      ...(typeof results.bestFitness === 'number' ? { bestFitness: results.bestFitness } : {}),
    },
  });
}

/** One part of a HUB multipart upload, as @fastify/multipart yields it. */
export type UploadPart = { type: 'field'; fieldname: string; value: unknown } | { type: 'file'; fieldname: string; file: Readable & { truncated: boolean } };

/**
 * HUB checkpoint or final upload (hub-protocol §5.7/5.8): fields `epoch`, `type` (epoch | final),
 * `isBest` or `map`, then one file part named `last.pt` or `best.pt`. Retried up to 10 times with the
 * same content, so it writes to a name fixed by model and epoch and replaces atomically: retries are
 * idempotent and an interrupted body leaves the model as it was. `openParts` is null when the request
 * is not multipart.
 */
export async function reportHubUpload(ctx: AppContext, user: { id: string; plan: string }, modelId: string, openParts: (() => AsyncIterable<UploadPart>) | null, requestBytes?: number) {
  const model = await reportableModel(ctx, user.id, modelId);
  if (!openParts) throw errors.validation('Send multipart/form-data with epoch, type and the weights file');
  const { fields, stored } = await storeHubParts(ctx, user, model, openParts(), requestBytes);
  const name = stored.key.slice(stored.key.lastIndexOf('/') + 1);
  if (stored.kind === 'last') {
    // The upload's reservation ends once the file counts through the model (settled) or was skipped.
    await promoteFile(ctx, model, { kind: 'last', key: stored.key, name, bytes: stored.bytes, epoch: stored.epoch }, { onlyIfNewer: true }).finally(stored.settle);
    const { model: touched } = await touchRun(ctx, model, 'hub');
    await publishModel(ctx, await markResumable(ctx, touched), 'model.updated');
    return;
  }
  await promoteFile(ctx, model, { kind: 'best', key: stored.key, name, bytes: stored.bytes, epoch: stored.epoch }).finally(stored.settle);
  const run = await trainingRepository.get(ctx.db, model.id);
  const map = Number(fields.map);
  const current = (await modelsRepository.byId(ctx.db, model.id)) ?? model;
  await finishRun(ctx, current, 'hub', {
    epoch: stored.epoch,
    finalMetrics: run?.finalMetrics ?? null,
    extra: { results: { ...(run?.results ?? {}), map: Number.isFinite(map) ? map : null } },
  });
}

const intField = (v: string | undefined) => (v !== undefined && /^-?\d{1,6}$/.test(v.trim()) ? Number(v.trim()) : null);

/** Streams the file part to its blob; fields before it decide its kind and epoch. Nothing is promoted here. */
async function storeHubParts(ctx: AppContext, user: { id: string; plan: string }, model: ModelRow, parts: AsyncIterable<UploadPart>, requestBytes?: number) {
  const fields: Record<string, string> = {};
  let stored: { kind: 'best' | 'last'; key: string; bytes: number; epoch: number | null; settle: () => Promise<void> } | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const type = fields.type;
      const kind: 'best' | 'last' = type === 'final' ? 'best' : type === 'epoch' ? 'last' : part.fieldname === 'best.pt' ? 'best' : 'last';
      const epoch = intField(fields.epoch);
      const key = modelBlobKey(model, hubStoredName(model.id, kind, epoch));
      const existing = await fileOf(ctx, model.id, kind);
      const { bytes, settle } = await streamIntoStore(ctx, user, key, part.file, { replacing: existing?.bytes ?? 0, maxBytes: MAX_CHECKPOINT_BYTES, settleLater: true, bodyBytes: requestBytes });
      if (part.file.truncated || bytes === 0) {
        await ctx.blobs.delete(key).catch(() => undefined);
        await settle();
        throw bytes === 0 ? errors.validation('The weights file is empty') : errors.payloadTooLarge('Checkpoints can be at most 8 GB');
      }
      if (stored) await stored.settle();
      stored = { kind, key, bytes, epoch, settle };
    }
  } catch (err) {
    if (stored && !(await fileOf(ctx, model.id, stored.kind).then((f) => f?.blobKey === stored!.key))) await ctx.blobs.delete(stored.key).catch(() => undefined);
    await stored?.settle().catch(() => undefined);
    if (err instanceof AppError) throw err;
    // A client that went away mid-body: nothing was promoted, the retry will send it again.
    ctx.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
    throw new AppError(400, ErrorCode.UploadInterrupted, 'The upload did not complete; send it again');
  }
  if (!stored) throw errors.validation('Attach the weights as a file part named last.pt or best.pt');
  return { fields, stored };
}

/**
 * Platform checkpoint upload, step 1 (platform-protocol §4.6): a signed PUT URL for a new, versioned
 * blob of the model. Clients without a runId never send checkpoint_saved: their upload is promoted
 * when it lands (mode `a`); the others wait for checkpoint_saved (mode `m`).
 */
export async function issueCheckpointUpload(ctx: AppContext, userId: string, ref: ModelRef, input: { filename: string; runId?: string | null }, baseUrl: string) {
  const model = await reportedModel(ctx, userId, ref);
  const uploadId = newId();
  const storedName = platformStoredName(model.slug, input.filename, uploadId);
  if (!storedName) throw errors.validation('filename: use letters, digits, dot, dash and underscore');
  const key = modelBlobKey(model, storedName);
  const path = `${CHECKPOINT_UPLOAD_PREFIX}${model.id}/${uploadId}/${input.runId ? 'm' : 'a'}/${storedName}`;
  return { uploadUrl: signCompatUrl(ctx, baseUrl, path, UPLOAD_URL_TTL_MS), key };
}

/**
 * Platform checkpoint upload, step 2: the body of a PUT to a path issueCheckpointUpload signed (the
 * caller checked the signature). Streams into storage within the owner's quota; null when the model
 * is gone. An interrupted body stores nothing (atomic put); the client's retry sends it again.
 */
export async function receiveCheckpointUpload(ctx: AppContext, path: string, body: Readable, declaredBytes: number | undefined): Promise<{ bytes: number } | null> {
  const [modelId, , mode, storedName] = path.slice(CHECKPOINT_UPLOAD_PREFIX.length).split('/').map(decodeURIComponent);
  const model = modelId ? await modelsRepository.byId(ctx.db, modelId) : null;
  const owner = model ? await usersRepository.byId(ctx.db, model.userId) : null;
  if (!model || model.deletedAt || !owner || !storedName) {
    body.resume();
    return null;
  }
  const key = modelBlobKey(model, storedName);
  const kind = storedKind(model, storedName);
  const replacing = (await fileOf(ctx, model.id, kind))?.bytes ?? 0;
  try {
    const { bytes, settle } = await streamIntoStore(ctx, owner, key, body, { declaredBytes, replacing, maxBytes: MAX_CHECKPOINT_BYTES, settleLater: mode === 'a' });
    if (mode === 'a') await promoteFile(ctx, model, { kind, key, name: storedName, bytes, epoch: null }).finally(settle);
    return { bytes };
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
    throw new AppError(400, ErrorCode.UploadInterrupted, 'The upload did not complete; send it again');
  }
}

// ---- what the clients download ----------------------------------------------------------------

/** What the Platform client's account summary counts (its login check). */
export async function accountCounts(ctx: AppContext, userId: string) {
  return trainingRepository.liveCounts(ctx.db, userId);
}

/** `ul://<owner>/datasets/<slug>` → signed NDJSON URL (platform-protocol §5.1/5.2); 409 while processing. */
export async function datasetExportUrl(ctx: AppContext, viewerId: string | null, owner: string, slug: string, baseUrl: string) {
  const dataset = await datasetBySlug(ctx, viewerId, owner, slug);
  if (!dataset.storageKey) throw errors.conflict(ErrorCode.DatasetNotReady, 'Resource not ready: the dataset is still processing');
  return signCompatUrl(ctx, baseUrl, `/v1/compat/datasets/${dataset.id}/${encodeURIComponent(dataset.slug)}.ndjson`, undefined, linkVersionOf(dataset));
}

/** `ul://<owner>/<project>/<model>` → the model's best weights and a signed URL for them; 409 without weights. */
export async function modelWeightsBySlugs(ctx: AppContext, viewerId: string | null, owner: string, projectSlug: string, modelSlug: string, baseUrl: string) {
  const ownerRow = await usersRepository.byUsername(ctx.db, owner);
  if (!ownerRow || ownerRow.deletedAt) throw errors.notFound('Model');
  const project = await projectsRepository.bySlug(ctx.db, ownerRow.id, projectSlug);
  const model = await modelsPolicy.read(ctx, viewerId, project ? await modelsRepository.bySlug(ctx.db, ownerRow.id, project.id, modelSlug) : null, project);
  const best = await fileOf(ctx, model.id, 'best');
  if (!best) throw errors.conflict(ErrorCode.ModelNotReady, 'Resource not ready: the model has no weights yet');
  return { best, url: fileUrl(best, { secret: ctx.secret, baseUrl, now: ctx.clock.now(), access: linkVersionOf(model) }, MODEL_URL_TTL_MS) };
}

/**
 * A dataset file behind a signed compat URL (the caller checked the signature): `<slug>.ndjson`
 * (Platform) is built in memory, `<id>-<name>.zip` (HUB) is the normalized zip's blob.
 */
export async function clientDatasetFile(ctx: AppContext, datasetId: string, file: string, baseUrl: string, access: string | null): Promise<{ ndjson: Buffer } | { zipKey: string }> {
  const dataset = await datasetById(ctx, datasetId);
  if (!dataset || dataset.deletedAt) throw errors.notFound('Dataset');
  // The link was issued for the dataset's access state then and to one holder: a privacy or team change
  // since, or a holder that lost access (revoked key, removed member), revokes it (ADR 0014, 0023).
  if (!access || !(await linkGrants(ctx, accessItem('dataset', dataset), itemLinkVersion(dataset), access))) throw errors.forbidden('This download link no longer grants access: ask for a new one');
  if (file.endsWith('.ndjson')) return { ndjson: await datasetNdjson(ctx, dataset, baseUrl, access) };
  if (file !== datasetZipName(dataset)) throw errors.notFound('File');
  return { zipKey: await datasetZipKey(ctx, dataset) };
}

// ---- what the web app reads and does ----------------------------------------------------------

/** `[{epoch, ...metrics}]`: the web app's charts and hub-sdk's Models.get_metrics() read the same shape. */
export async function trainingMetrics(ctx: AppContext, viewerId: string | null, modelId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  return (await trainingRepository.metrics(ctx.db, model.id)).map((r) => ({ epoch: r.epoch, ...r.metrics }));
}

/** Console chunks after `after`. Console text shows local paths of the training machine: only those who may train see it. */
export async function trainingConsole(ctx: AppContext, viewerId: string | null, modelId: string, after: number, limit: number) {
  const model = await readableModel(ctx, viewerId, modelId);
  if (!(await may(ctx, viewerId, modelItem(model), 'train'))) throw errors.forbidden('Only the owner can read the training console');
  return trainingRepository.console(ctx.db, model.id, after, limit);
}

/** Final results of a run as the client reported them (training_complete); machine details only for those who may train. */
export async function trainingResults(ctx: AppContext, viewerId: string | null, modelId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  const row = await trainingRepository.get(ctx.db, model.id);
  return row ? { run: row, trainer: await may(ctx, viewerId, modelItem(model), 'train') } : null;
}

/** Active jobs (ADR 0020): the user's live runs and those that ended Stopped or Failed in the last day, with the reason. */
export async function activeRuns(ctx: AppContext, userId: string) {
  const rows = await trainingRepository.activeRuns(ctx.db, userId, new Date(ctx.clock.now().getTime() - 24 * 3_600_000));
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return rows.map(({ run, model }) => ({
    id: model.id,
    name: model.name,
    projectId: model.projectId,
    outcome: run.outcome,
    error: run.error,
    protocol: run.protocol,
    epochsDone: model.epochsDone,
    epochsTotal: run.epochsTotal ?? configuredEpochs(model),
    dates: { train: { start: iso(model.trainStart), end: iso(model.trainEnd), heartbeat: iso(model.trainHeartbeat), initialized: iso(model.trainInitialized) } },
  }));
}

/**
 * Stop from the model page: remembered until the run ends, and returned as `cancelled: true` on every
 * Platform answer from then on (traces README: the client only learns of it from a response).
 */
export async function requestStop(ctx: AppContext, userId: string, modelId: string) {
  const model = await ownedModel(ctx, userId, modelId, 'train');
  if (model.trainEnd) throw errors.conflict(ErrorCode.TrainingFinished, 'This training has already finished');
  const run = await trainingRepository.get(ctx.db, model.id);
  if (!run) throw errors.conflict(ErrorCode.NotTraining, 'No client has reported training for this model yet');
  const now = ctx.clock.now();
  await upsertRun(ctx.db, model.id, run.protocol, { cancelRequestedAt: run.cancelRequestedAt ?? now, cancelRequestedBy: userId, updatedAt: now });
  await publishModel(ctx, model, 'model.updated');
  return model;
}
