import type { AppContext } from '../../context.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { trainingRepository, type Protocol, type TrainingPatch } from './training.repository.js';
import { consoleAppended, metricsRecorded, modelRef } from './training.events.js';

/** What a run reports as it goes (the lifecycle's "record epochs"): per-epoch metrics and console chunks. */

const MAX_CHUNK_CHARS = 256 * 1024;
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

export function numericMetrics(m: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) if (num(v) && k.startsWith('metrics/')) out[k] = v;
  return out;
}

export type EpochEntry = { epoch: number; metrics: Record<string, unknown> };

/**
 * Stores per-epoch metrics, idempotent per epoch. The client re-validates best.pt after the last
 * epoch and reports that as one more epoch-end (traces README: the Platform client numbers it last+1,
 * the HUB client reuses the last epoch's key). Those objects carry no `val/*` losses, so when the
 * epochs around them do, they are kept as the run's final metrics instead of overwriting an epoch or
 * adding a phantom one. Anything else is last-write-wins per epoch.
 */
export async function recordEpochMetrics(ctx: AppContext, model: ModelRow, protocol: Protocol, entries: EpochEntry[], extra: TrainingPatch = {}) {
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
      const isFinal =
        !hasVal(metrics) &&
        ((same !== undefined && hasVal(same)) || (protocol === 'platform' && !same && epoch === maxEpoch + 1 && previous !== undefined && hasVal(previous)));
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
    await trainingRepository.upsert(tx, model.id, protocol, {
      ...extra,
      ...(final ? { finalMetrics: final } : {}),
      ...(bestEpoch !== null ? { bestEpoch, bestFitness } : {}),
      lastEventAt: now,
      staleAt: null,
      updatedAt: now,
    });
    return modelQueries.update(tx, model.id, {
      epochsDone: Math.max(model.epochsDone, lastEpoch + 1),
      bestMetrics: bestMetrics && Object.keys(bestMetrics).length ? bestMetrics : model.bestMetrics,
      ...(model.trainEnd ? {} : { trainHeartbeat: now, trainInitialized: model.trainInitialized ?? now, trainStart: model.trainStart ?? now }),
      updatedAt: now,
    });
  });
  const epochs = entries.map((e) => e.epoch);
  await metricsRecorded(ctx, updated ?? model, epochs, final !== null);
  const last = entries[entries.length - 1];
  if (last)
    await ctx.events.emit('training.epoch', model.userId, {
      model: modelRef(model),
      epoch: last.epoch,
      epochsDone: (updated ?? model).epochsDone,
      metrics: numericMetrics(last.metrics),
      final: final !== null,
    });
  return updated ?? model;
}

/** Console chunks are keyed by the client's chunkId: out-of-order and repeated deliveries land once. */
export async function appendConsole(ctx: AppContext, model: ModelRow, chunk: { chunkId: number; content: string; lineCount: number }) {
  await trainingRepository.insertConsole(ctx.db, {
    modelId: model.id,
    chunkId: chunk.chunkId,
    content: chunk.content.slice(0, MAX_CHUNK_CHARS),
    lineCount: chunk.lineCount,
    createdAt: ctx.clock.now(),
  });
  await consoleAppended(ctx, model, chunk.chunkId);
}
