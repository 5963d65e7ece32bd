import { CLOUD_MIN_WALLET_MICRO, ErrorCode, untrainableReason, type CloudTrainingBody } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { planLimits } from '../billing/billing.plans.js';
import { datasetsRepository } from '../datasets/datasets.repository.js';
import { isEnabled } from '../flags/flags.service.js';
import { modelsRepository, type ModelRow } from '../models/models.repository.js';
import { ownedModel, readableModel } from '../models/models.service.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { agentsRepository, type AgentJobRow } from './agents.repository.js';
import { finishRunBilling, holdForRun } from './agents.billing.js';
import { enqueueJob, newRunKey, registerJobKind, requestCancel, tailOf, type FinalStatus } from './agents.service.js';
import { cloudTrainArgs, CommandError, trainWords } from './cloud-training.command.js';

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
  const dataset = model.datasetId ? await datasetsRepository.byId(ctx.db, model.datasetId) : null;
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
  else if (walletMicro < CLOUD_MIN_WALLET_MICRO) reason = `Your wallet holds ${formatMicro(walletMicro)}: cloud training needs at least ${formatMicro(CLOUD_MIN_WALLET_MICRO)}`;
  else if (walletMicro < estimateMicro) reason = `The estimate is ${formatMicro(estimateMicro)} but your wallet holds ${formatMicro(walletMicro)}`;
  return {
    model,
    dataset,
    gpu,
    estimate: { gpuType: gpu.id, mode: body.mode, epochs, hours, estimateMicro, pricePerEpochMicro: body.mode === 'timed' ? Math.ceil(estimateMicro / epochs) : pricePerEpochMicro, walletMicro, canStart: reason === null, reason },
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
  const best = (await modelsRepository.files(ctx.db, [parent.id])).find((f) => f.kind === 'best');
  if (!best) throw errors.conflict(ErrorCode.ModelNotReady, `The parent model "${parent.name}" has no trained weights yet`);
  const project = parent.projectId ? await projectsRepository.byId(ctx.db, parent.projectId) : null;
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
  if (model.trainStart || model.trainEnd) throw errors.conflict(ErrorCode.TrainingStarted, 'This model has already been trained; create a new model to train again');
  const live = await agentsRepository.latestTrainJob(ctx.db, model.id);
  if (live && ['queued', 'claimed', 'running'].includes(live.status)) throw errors.conflict(ErrorCode.TrainingQueued, 'A cloud run for this model is already queued or running');
  const project = model.projectId ? await projectsRepository.byId(ctx.db, model.projectId) : null;
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
  return enqueueJob(ctx, {
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
  return requestCancel(ctx, by, job.id);
}

registerJobKind('train', {
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
    if (status === 'failed' && job.modelId) await ctx.events.emit('training.failed', job.userId, { model: { id: job.modelId }, cloud: true, error: error?.slice(0, 2000) ?? null });
    return { status, error };
  },
});
