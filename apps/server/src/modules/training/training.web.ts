import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { may } from '../access/index.js';
import { ownedModel, readableModel } from '../models/models.service.js';
import { modelItem } from '../models/models.policy.js';
import { runChanged } from './training.events.js';
import { trainingRepository } from './training.repository.js';
import { configuredEpochs } from './training.runs.js';

/** What the web app reads about runs (charts, console, results, Active jobs) and its Stop button. */

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
    dates: {
      train: { start: iso(model.trainStart), end: iso(model.trainEnd), heartbeat: iso(model.trainHeartbeat), initialized: iso(model.trainInitialized) },
    },
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
  await trainingRepository.upsert(ctx.db, model.id, run.protocol, {
    cancelRequestedAt: run.cancelRequestedAt ?? now,
    cancelRequestedBy: userId,
    updatedAt: now,
  });
  await runChanged(ctx, model);
  return model;
}
