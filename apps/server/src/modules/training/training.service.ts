import type { AppContext } from '../../context.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { promoteFile, type CheckpointKind } from './training.checkpoints.js';
import { appendConsole, recordEpochMetrics, type EpochEntry } from './training.metrics.js';
import { runChanged } from './training.events.js';
import type { Protocol, TrainingPatch, TrainingRow } from './training.repository.js';
import { cancelRequested, finishRun, markResumable, reportedModel, touchRun, type ModelRef } from './training.runs.js';

/**
 * THE public entry of training: the protocol-neutral run lifecycle (ADR 0020, 0032) that the wire
 * adapters call. compat/hub and compat/platform own their formats (multipart fields, upload URL
 * layout, `ul://`) and translate them into these calls; they import nothing else of this module
 * (`npm run arch:check` counts it). Sightline never trains: whichever client reported, the model's
 * dates, files, metrics and realtime events behave the same.
 *
 *   start ─▶ report (heartbeat, console) ─▶ recordEpochs ─▶ storeCheckpoint … ─▶ finish
 *                         └────────── silence: markStaleRuns (Timeout; a late event revives it)
 */

export type { CheckpointKind, EpochEntry, ModelRef, ModelRow, Protocol, TrainingPatch, TrainingRow };
export type { RunStart } from './training.runs.js';

// The model a client reports for, and the run itself.
export {
  reportableModel,
  reportedModel as resolveModel,
  runOf,
  startRun,
  resumeRun,
  touchRun as report,
  markStaleRuns,
  cancelRequested,
} from './training.runs.js';
// Weights: stream a body within the owner's quota, then promote it to the model's file.
export { MAX_CHECKPOINT_BYTES, fileOf, receiveCheckpoint, discardCheckpoint, promoteFile, promoteStored } from './training.checkpoints.js';
// What the clients download and check.
export { accountCounts, readyDatasetBySlug, bestWeightsBySlugs, clientDatasetFile, modelForSignedUpload } from './training.downloads.js';
export { fitnessOf } from './training.metrics.js';
export { modelBlobKey } from './training.args.js';

/** The model as stored now (after other steps of the same request changed it). */
export async function reloadModel(ctx: AppContext, model: ModelRow) {
  return (await modelQueries.byId(ctx.db, model.id)) ?? model;
}

/** Tells open pages the model changed (status, dates, files). */
export async function announce(ctx: AppContext, model: ModelRow) {
  await runChanged(ctx, model);
}

/**
 * Per-epoch metrics, a sign of life too (HUB `type: metrics`, Platform `epoch_end`). Answers whether
 * a Stop was requested: the Platform client learns of it only from an answer and keeps being told
 * until the run ends (traces README §4); the HUB client has no cancel channel.
 */
export async function recordEpochs(ctx: AppContext, userId: string, ref: ModelRef, protocol: Protocol, entries: EpochEntry[], extra: TrainingPatch = {}) {
  const model = (await touchRun(ctx, await reportedModel(ctx, userId, ref), protocol)).model;
  await recordEpochMetrics(ctx, model, protocol, entries, extra);
  return { cancelled: await cancelRequested(ctx, model.id) };
}

/** A console chunk: stored once per chunkId, and a sign of life. */
export async function recordConsole(
  ctx: AppContext,
  userId: string,
  ref: ModelRef,
  protocol: Protocol,
  chunk: { chunkId: number; content: string; lineCount?: number | null },
) {
  const model = await reportedModel(ctx, userId, ref);
  await appendConsole(ctx, model, { chunkId: chunk.chunkId, content: chunk.content, lineCount: chunk.lineCount ?? chunk.content.split('\n').length });
  await touchRun(ctx, model, protocol);
}

/**
 * A resumable checkpoint arrived mid-run (the reservation of its upload ends once it counts through
 * the model, or was skipped as older than the one stored): promoted, a sign of life, and the model
 * resumable from it.
 */
export async function storeCheckpoint(
  ctx: AppContext,
  model: ModelRow,
  protocol: Protocol,
  file: { kind: CheckpointKind; key: string; name: string; bytes: number; epoch: number | null; settle: () => Promise<void> },
) {
  await promoteFile(ctx, model, file, { onlyIfNewer: true }).finally(file.settle);
  const { model: touched } = await touchRun(ctx, model, protocol);
  await announce(ctx, await markResumable(ctx, touched));
}

/** The run's end as the client reports it (see finishRun: the lifecycle decides Completed or Stopped). */
export async function finish(
  ctx: AppContext,
  model: ModelRow,
  protocol: Protocol,
  input: { finalMetrics?: Record<string, unknown> | null; epoch?: number | null; names?: string[] | null; extra?: TrainingPatch },
) {
  return finishRun(ctx, await reloadModel(ctx, model), protocol, input);
}
