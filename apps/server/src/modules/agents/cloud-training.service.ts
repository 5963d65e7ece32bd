import { CLOUD_MIN_WALLET_MICRO, ErrorCode, untrainableReason, type CloudTrainingBody } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { planLimits } from '../billing/billing.plans.js';
import { datasetQueries } from '../datasets/index.js';
import { isEnabled } from '../flags/flags.service.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { ownedModel, readableModel } from '../models/models.service.js';
import { projectQueries } from '../projects/index.js';
import { agentsRepository, type AgentJobRow } from './agents.repository.js';
import { publishModelChange } from './agents.events.js';
import { finishRunBilling, holdForRun, resumeRunBilling, suspendRunBilling } from './agents.billing.js';
import { dropRunKey, enqueueJob, newRunKey, registerJobKind, requestCancel, tailOf, type FinalStatus, type JobKind } from './agents.service.js';
import { cloudTrainArgs, CommandError, trainWords } from './cloud-training.command.js';
import { applyRunEvent, onRunChange, refusalToTrainAgain, type Change } from '../training/run-lifecycle.js';
import { runOf } from '../training/training.service.js';

/**
 * Cloud training (plan pro/enterprise + flag cloudTraining): the run is an agent job on the shared
 * pool. The agent runs the real `yolo train` with ULTRALYTICS_PLATFORM_URL pointing at this hub and
 * a per-run API key, so metrics and weights arrive through the Platform protocol like any user's run.
 */

const EPOCH_OVERHEAD_S = 10;
const formatMicro = (micro: number) => `$${(micro / 1_000_000).toFixed(2)}`;

function imagesPerEpoch(stats: Record<string, unknown> | null) {
  const summary = (stats as { summary?: { train?: number; images?: number } } | null)?.summary;
  return Math.max(1, summary?.train ?? summary?.images ?? 100);
}

export async function estimate(ctx: AppContext, user: { id: string; plan: string }, modelId: string, body: CloudTrainingBody) {
  const model = await ownedModel(ctx, user.id, modelId);
  const gpu = await agentsRepository.gpuType(ctx.db, body.gpuType);
  if (!gpu || !gpu.enabled) throw errors.validation(`Unknown GPU type ${body.gpuType}`);
  const dataset = model.datasetId ? await datasetQueries.byId(ctx.db, model.datasetId) : null;
  const imgsz = Number((model.config as { imageSize?: number }).imageSize ?? 640) || 640;
  const secondsPerEpoch = (imagesPerEpoch(dataset?.stats ?? null) * (imgsz / 640) ** 2) / gpu.imagesPerSecond + EPOCH_OVERHEAD_S;
  const ratePerSecond = gpu.hourlyRateMicro / 3600;
  let epochs: number;
  let hours: number;
  if (body.mode === 'timed') {
    hours = body.hours ?? 1;
    epochs = Math.max(1, Math.floor((hours * 3600) / secondsPerEpoch));
  } else {
    epochs = body.epochs;
    hours = (epochs * secondsPerEpoch) / 3600;
  }
  const pricePerEpochMicro = Math.max(1, Math.ceil(secondsPerEpoch * ratePerSecond));
  const estimateMicro = body.mode === 'timed' ? Math.ceil(hours * gpu.hourlyRateMicro) : pricePerEpochMicro * epochs;
  const owner = await agentsRepository.userPlan(ctx.db, user.id);
  // The ledger keeps the balance net of running holds.
  const walletMicro = owner?.wallet ?? 0;
  let reason: string | null = null;
  const untrainable = untrainableReason(dataset?.task) ?? untrainableReason(model.task);
  if (!(await isEnabled(ctx, 'cloudTraining'))) reason = 'Cloud training is not enabled on this server';
  else if (untrainable) reason = untrainable;
  else if (!(await planLimits(ctx, user.plan)).cloudTraining) reason = 'Cloud training needs the Pro or Enterprise plan';
  else if (!dataset || dataset.deletedAt) reason = 'Pick a dataset for this model first';
  else if (walletMicro < CLOUD_MIN_WALLET_MICRO)
    reason = `Your wallet holds ${formatMicro(walletMicro)}: cloud training needs at least ${formatMicro(CLOUD_MIN_WALLET_MICRO)}`;
  else if (walletMicro < estimateMicro) reason = `The estimate is ${formatMicro(estimateMicro)} but your wallet holds ${formatMicro(walletMicro)}`;
  return {
    model,
    dataset,
    gpu,
    estimate: {
      gpuType: gpu.id,
      mode: body.mode,
      epochs,
      hours,
      estimateMicro,
      pricePerEpochMicro: body.mode === 'timed' ? Math.ceil(estimateMicro / epochs) : pricePerEpochMicro,
      walletMicro,
      canStart: reason === null,
      reason,
    },
  };
}

/**
 * The `ul://` of the model a run starts from ("train from one of my models"): readable by the run's
 * owner (the run's key fetches it), trained (best weights), in a project (the URI names it).
 */
async function parentUri(ctx: AppContext, ownerId: string, model: ModelRow): Promise<string | null> {
  if (!model.parentId) return null;
  const parent = await readableModel(ctx, ownerId, model.parentId).catch(() => null);
  if (!parent || parent.deletedAt) throw errors.validation('The parent model this model starts from is gone or not readable: choose another one');
  const best = (await modelQueries.files(ctx.db, [parent.id])).find((f) => f.kind === 'best');
  if (!best) throw errors.conflict(ErrorCode.ModelNotReady, `The parent model "${parent.name}" has no trained weights yet`);
  const project = parent.projectId ? await projectQueries.byId(ctx.db, parent.projectId) : null;
  const owner = await agentsRepository.userPlan(ctx.db, parent.userId);
  if (!project || !owner) throw errors.validation(`The parent model "${parent.name}" is in no project, so a run cannot fetch it`);
  return `ul://${owner.username}/${project.slug}/${parent.slug}`;
}

export async function startCloudTraining(ctx: AppContext, user: { id: string; plan: string; username: string }, modelId: string, body: CloudTrainingBody) {
  const { model, dataset, gpu, estimate: est } = await estimate(ctx, user, modelId, body);
  // What cannot be trained at all is a bad request, whatever the wallet says.
  const untrainable = untrainableReason(dataset?.task) ?? untrainableReason(model.task);
  if (untrainable) throw new AppError(400, ErrorCode.TaskNotTrainable, untrainable);
  if (!est.canStart) throw new AppError(402, ErrorCode.CloudTrainingRefused, est.reason!);
  // Stopped, Failed and timed-out models train again (ADR 0020); a trained or live one does not.
  const run = await runOf(ctx, model.id);
  const refusal = refusalToTrainAgain(run, model);
  if (refusal === 'trained') throw errors.conflict(ErrorCode.TrainingStarted, 'This model has already been trained; create a new model to train again');
  const live = await agentsRepository.latestTrainJob(ctx.db, model.id);
  const liveJob = live && ['queued', 'claimed', 'running'].includes(live.status) && !live.cancelRequestedAt ? live : null;
  // A run stopped from the page may still be winding down on its agent: it no longer counts. A timed-out
  // one is replaced: its job is stopped first (its hold was already given back).
  if (refusal === 'running' || (liveJob && run?.outcome !== 'timeout'))
    throw errors.conflict(ErrorCode.TrainingQueued, 'A cloud run for this model is already queued or running');
  const project = model.projectId ? await projectQueries.byId(ctx.db, model.projectId) : null;
  const owner = (await agentsRepository.userPlan(ctx.db, user.id))!;
  let args: Record<string, unknown>;
  try {
    args = cloudTrainArgs({
      model,
      datasetTask: dataset!.task,
      data: `ul://${owner.username}/datasets/${dataset!.slug}`,
      epochs: est.epochs,
      hours: body.mode === 'timed' ? est.hours : null,
      project: `${owner.username}/${project?.slug ?? 'cloud'}`,
      name: model.slug,
      device: gpu.device,
      explicitModel: body.model,
      parentUri: await parentUri(ctx, model.userId, model),
    });
  } catch (err) {
    if (err instanceof CommandError) throw new AppError(400, err.kind === 'task' ? ErrorCode.TaskNotTrainable : ErrorCode.Validation, err.message);
    throw err;
  }
  // Hold first: a refused hold (the wallet changed since the estimate) queues nothing.
  const jobId = newId();
  const holdId = await holdForRun(ctx, { jobId, userId: model.userId, modelId: model.id, amount: est.estimateMicro });
  if (liveJob) await dropRunKey(ctx, await requestCancel(ctx, { id: user.id, roles: [] }, liveJob.id));
  const job = await enqueueJob(ctx, {
    id: jobId,
    holdId,
    kind: 'train',
    userId: model.userId,
    modelId: model.id,
    gpuTypeId: gpu.id,
    args,
    maxAttempts: 1,
    charged: true,
    epochs: est.epochs,
    pricePerEpochMicro: est.pricePerEpochMicro,
    holdMicro: est.estimateMicro,
  });
  await applyRunEvent(ctx, model.id, 'platform', { type: 'queue' });
  await publishModelChange(ctx, model.id);
  return job;
}

/** What the agent runs for a training job: a fresh API key for this run only (revoked at its end). */
export async function trainCommand(ctx: AppContext, job: AgentJobRow, baseUrl: string) {
  const key = await newRunKey(ctx, job.userId, job.modelId);
  await agentsRepository.updateJob(ctx.db, job.id, { runKeyId: key.id });
  const args = trainWords(job.args);
  return { args, env: { ULTRALYTICS_PLATFORM_URL: baseUrl, ULTRALYTICS_API_KEY: key.key }, inputs: [], artifact: null };
}

export async function cloudRun(ctx: AppContext, viewerId: string | null, modelId: string) {
  const model = await readableModel(ctx, viewerId, modelId);
  // Holds and charges are the owner's business.
  if (model.userId !== viewerId) return null;
  return agentsRepository.latestTrainJob(ctx.db, model.id);
}

export async function stopCloudRun(ctx: AppContext, by: { id: string; roles: string[] }, modelId: string) {
  const model = await ownedModel(ctx, by.id, modelId);
  const job = await agentsRepository.latestTrainJob(ctx.db, model.id);
  if (!job) throw errors.conflict(ErrorCode.NotTraining, 'This model has no cloud run');
  const cancelled = await requestCancel(ctx, by, job.id);
  // Stopped at once (ADR 0020): the run's key is revoked so its yolo reports nothing more, the bill is
  // frozen and the rest of the hold goes back now; the agent signals yolo on its next heartbeat.
  await dropRunKey(ctx, cancelled);
  const now = ctx.clock.now();
  await applyRunEvent(ctx, model.id, 'platform', { type: 'stop', reason: 'Stopped from the model page' }, { cancelRequestedAt: now, cancelRequestedBy: by.id });
  await publishModelChange(ctx, model.id);
  return (await agentsRepository.job(ctx.db, job.id)) ?? cancelled;
}

/** The model's run follows its cloud job's end (ADR 0020), unless a newer run of the model replaced it. */
async function endRunOf(ctx: AppContext, job: AgentJobRow, status: FinalStatus, error: string | null) {
  const latest = await agentsRepository.latestTrainJob(ctx.db, job.modelId);
  if (latest && latest.id !== job.id) return;
  const event =
    status === 'succeeded'
      ? ({ type: 'end', stopped: false } as const)
      : status === 'cancelled'
        ? ({ type: 'stop', reason: error } as const)
        : ({ type: 'fail', reason: (error ?? 'Training failed').slice(0, 2000) } as const);
  await applyRunEvent(ctx, job.modelId, 'platform', event);
}

/** Holds and charges follow the run's state (ADR 0020): Timeout gives the hold back, a late event holds again, an end releases. */
async function billingFollowsRun(ctx: AppContext, change: Change) {
  const job = await agentsRepository.latestTrainJob(ctx.db, change.modelId);
  if (!job || !job.charged || !['queued', 'claimed', 'running'].includes(job.status)) return;
  if (change.to === 'timeout') await suspendRunBilling(ctx, job);
  else if (change.to === 'running' && change.from === 'timeout' && !(await resumeRunBilling(ctx, job))) {
    const stopped = await requestCancel(ctx, { id: job.userId, roles: [] }, job.id);
    await agentsRepository.updateJob(ctx.db, job.id, { error: 'Stopped: the wallet no longer covers the rest of the run', updatedAt: ctx.clock.now() });
    await applyRunEvent(
      ctx,
      job.modelId,
      'platform',
      { type: 'stop', reason: 'Stopped: the wallet no longer covers the rest of the run' },
      { cancelRequestedAt: stopped.cancelRequestedAt ?? ctx.clock.now() },
    );
  } else if (change.to === 'cancelled' || change.to === 'failed' || change.to === 'completed') await finishRunBilling(ctx, job);
}

/** Cloud training on this app's ctx (ADR 0032): the `train` agent-job kind, and billing that follows the run's states. */
export function registerCloudTraining(ctx: AppContext) {
  onRunChange(ctx, billingFollowsRun);
  registerJobKind(ctx, 'train', trainJobKind);
}

const trainJobKind: JobKind = {
  command: trainCommand,
  async onFinished(ctx: AppContext, job: AgentJobRow, status: FinalStatus, reason: string | null) {
    let error = reason;
    if (status === 'failed') {
      // The run's own last words say why (a CUDA OOM, a bad dataset, the kill).
      const tail = await tailOf(ctx, job.id);
      if (tail) error = `${reason ?? 'Training failed'}\n${tail}`;
    }
    // Money before the status (idempotent ledger keys): whoever sees the final status sees the final bill.
    await finishRunBilling(ctx, job);
    if (status === 'failed' && job.modelId)
      await ctx.events.emit('training.failed', job.userId, { model: { id: job.modelId }, cloud: true, error: error?.slice(0, 2000) ?? null });
    await endRunOf(ctx, job, status, error);
    return { status, error };
  },
};
