import { CLOUD_MIN_WALLET_MICRO, ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { hold, release, settle } from '../billing/billing.ledger.js';
import { newId } from '../../platform/ids.js';
import { modelQueries } from '../models/index.js';
import { agentsRepository, type AgentJobRow } from './agents.repository.js';
import { publishModelChange } from './agents.events.js';

/**
 * Money for cloud runs on the wallet ledger (product notes): hold the estimate before the run is
 * queued, settle each finished epoch, never above the hold, release the rest at the end; a run
 * that never started is released in full. Billing stops when a stop is requested: epochs that
 * finish after the request are not charged. Every ledger call has an idempotency key derived from
 * the job, so a heartbeat and a finish settling at once charge an epoch once.
 */

export async function holdForRun(ctx: AppContext, input: { jobId: string; userId: string; modelId: string; amount: number; minimum?: number }) {
  // The wallet minimum is checked by the hold itself, under the wallet's lock (parallel starts see each other).
  const { holdId } = await hold(ctx, {
    userId: input.userId,
    modelId: input.modelId,
    amount: input.amount,
    idempotencyKey: `agent-job:${input.jobId}:hold`,
    reason: 'Cloud training estimate',
    minimum: input.minimum ?? CLOUD_MIN_WALLET_MICRO,
  });
  return holdId;
}

/** Settles the epochs finished since the last call; asks the run to stop when the hold is used up. */
export async function settleRun(ctx: AppContext, job: AgentJobRow, opts: { freeze?: boolean } = {}) {
  if (!job.charged || !job.pricePerEpochMicro || !job.holdId) return job;
  // A requested stop freezes the bill at the moment of the request (settled once, with freeze).
  if (job.cancelRequestedAt && !opts.freeze) return job;
  const model = await modelQueries.byId(ctx.db, job.modelId);
  if (!model) return job;
  const epochs = Math.min(model.epochsDone, job.epochs ?? Number.MAX_SAFE_INTEGER);
  let settled = job.settledMicro;
  let done = job.epochsSettled;
  for (let epoch = job.epochsSettled; epoch < epochs; epoch++) {
    const amount = Math.min(job.pricePerEpochMicro, job.holdMicro - settled);
    if (amount <= 0) break;
    try {
      await settle(ctx, { holdId: job.holdId, amount, epoch, idempotencyKey: `agent-job:${job.id}:epoch:${epoch}` });
    } catch (err) {
      // The run already ended and its hold was released: nothing more is charged.
      if (err instanceof AppError && err.code === ErrorCode.HoldClosed) break;
      throw err;
    }
    settled += amount;
    done = epoch + 1;
  }
  if (done === job.epochsSettled) return job;
  const exhausted = settled >= job.holdMicro && done < (job.epochs ?? 0);
  const now = ctx.clock.now();
  const updated = await agentsRepository.updateJob(ctx.db, job.id, {
    settledMicro: settled,
    epochsSettled: done,
    updatedAt: now,
    ...(exhausted && !job.cancelRequestedAt ? { cancelRequestedAt: now, error: 'Stopped: the run used up its hold' } : {}),
  });
  await publishModelChange(ctx, job.modelId);
  return updated ?? job;
}

/** Releases the run's current hold (idempotent per hold; a hold already closed is fine). */
async function releaseHold(ctx: AppContext, job: AgentJobRow, reason?: string) {
  if (!job.holdId) return;
  try {
    // One key per hold: a run holds again after a timeout (resumeRunBilling).
    await release(ctx, { holdId: job.holdId, idempotencyKey: `agent-job:${job.id}:release:${job.holdId}`, reason });
  } catch (err) {
    if (!(err instanceof AppError && err.code === ErrorCode.HoldClosed)) throw err;
  }
}

/** End of a charged run: last settlement (unless a stop froze it), then the rest of the hold goes back. */
export async function finishRunBilling(ctx: AppContext, job: AgentJobRow) {
  if (!job.charged || !job.holdId) return job;
  const settled = await settleRun(ctx, job);
  await releaseHold(ctx, settled);
  return settled;
}

/**
 * The run timed out (ADR 0020): what it has not used of its hold goes back to the wallet now, so a
 * silent run ties up no money. Epochs already settled stay charged.
 */
export async function suspendRunBilling(ctx: AppContext, job: AgentJobRow) {
  if (!job.charged || !job.holdId) return job;
  const settled = await settleRun(ctx, job);
  await releaseHold(ctx, settled, 'Run timed out: the rest of the hold returned');
  const updated = await agentsRepository.updateJob(ctx.db, job.id, { holdId: null, updatedAt: ctx.clock.now() });
  await publishModelChange(ctx, job.modelId);
  return updated ?? job;
}

/**
 * A timed-out run reports again: it holds what is left of its estimate again and epochs are charged
 * as before. Answers false when the wallet no longer covers it (the caller stops the run).
 */
export async function resumeRunBilling(ctx: AppContext, job: AgentJobRow): Promise<boolean> {
  if (!job.charged || job.holdId) return true;
  const rest = job.holdMicro - job.settledMicro;
  if (rest <= 0) return false;
  try {
    // The wallet minimum is for starting a run; a run that goes on only needs what is left of its estimate.
    const holdId = await holdForRun(ctx, { jobId: `${job.id}:${newId()}`, userId: job.userId, modelId: job.modelId, amount: rest, minimum: 0 });
    await agentsRepository.updateJob(ctx.db, job.id, { holdId, updatedAt: ctx.clock.now() });
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 402) return false;
    throw err;
  }
  await publishModelChange(ctx, job.modelId);
  return true;
}
