import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TrainingState } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { modelConsole, modelFiles, modelMetrics, models, modelTraining } from '../../platform/db/schema.js';
import { errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { ownedModel } from '../models/models.service.js';
import { modelsRepository, type ModelRow } from '../models/models.repository.js';

/**
 * The training lifecycle as reported by the user's own ultralytics client. Sightline never trains:
 * both wire protocols (compat/hub, compat/platform) translate their calls into these functions, so
 * the model's dates, files, metrics and realtime events behave the same whichever client reported.
 *
 * Dates (spec §4, computed by modelStatus()): train.initialized and train.start when a run begins,
 * train.heartbeat on every sign of life, train.end when the client reports the end. Nothing here
 * ever deletes reported data; a run that goes quiet is only marked stale.
 */

export type TrainingRow = typeof modelTraining.$inferSelect;
export type Protocol = 'hub' | 'platform';

/** HUB clients heartbeat every 300 s (hub-protocol §5.5): three missed beats mean the agent is gone. */
export const HUB_STALE_AFTER_MS = 15 * 60_000;
/** Platform clients send no heartbeats; console chunks come every few seconds while anything prints. */
export const PLATFORM_STALE_AFTER_MS = 60 * 60_000;

export const trainingRepository = {
  get: async (db: Db, modelId: string) => (await db.select().from(modelTraining).where(eq(modelTraining.modelId, modelId)).limit(1))[0] ?? null,
  byIds: async (db: Db, ids: string[]) => (ids.length ? db.select().from(modelTraining).where(inArray(modelTraining.modelId, ids)) : []),
  byRunId: async (db: Db, runId: string) => (await db.select().from(modelTraining).where(eq(modelTraining.runId, runId)).limit(1))[0] ?? null,
};

export function presentTraining(row: TrainingRow | null | undefined): TrainingState | null {
  if (!row) return null;
  return {
    protocol: row.protocol,
    runId: row.runId,
    outcome: row.outcome,
    cancelRequested: row.cancelRequestedAt !== null,
    stale: row.staleAt ? row.staleAt.toISOString() : null,
    lastEvent: row.lastEventAt ? row.lastEventAt.toISOString() : null,
    epochsTotal: row.epochsTotal,
    bestEpoch: row.bestEpoch,
  };
}

/** Small realtime payloads (the bus caps NOTIFY at ~8 kB): the web app refetches what it shows. */
export async function publishModel(ctx: AppContext, row: Pick<ModelRow, 'id' | 'userId' | 'projectId'>, event: 'model.updated' | 'model.metrics' | 'model.console', extra: Record<string, unknown> = {}) {
  const data = { id: row.id, projectId: row.projectId, ...extra };
  await ctx.bus.publish(`model:${row.id}`, event, data);
  if (event === 'model.updated') await ctx.bus.publish(`user:${row.userId}:models`, event, { id: row.id, projectId: row.projectId });
}

/**
 * The model a client may report for: its owner's key only. Others' private models stay hidden (404);
 * another user's readable model is a 403, as everywhere else in the API.
 */
export async function reportableModel(ctx: AppContext, userId: string, modelId: string): Promise<ModelRow> {
  const row = await ownedModel(ctx, userId, modelId);
  if (row.deletedAt) throw errors.notFound('Model');
  return row;
}

/** Creates or updates the run row; `patch` values win, `insertOnly` values only seed a new row. */
async function upsertRun(db: Db, modelId: string, protocol: Protocol, patch: Partial<typeof modelTraining.$inferInsert>, insertOnly: Partial<typeof modelTraining.$inferInsert> = {}) {
  const now = patch.updatedAt ?? new Date();
  const rows = await db
    .insert(modelTraining)
    .values({ modelId, protocol, ...insertOnly, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: modelTraining.modelId, set: { ...patch, updatedAt: now } })
    .returning();
  return rows[0]!;
}

/**
 * A sign of life from the client: refreshes train.heartbeat (and the first one of a run sets
 * train.initialized and train.start) and clears a stale mark. A finished model keeps its dates:
 * HUB heartbeats go on after the final upload until the Python process exits (hub-protocol §5.5).
 */
export async function touchRun(ctx: AppContext, model: ModelRow, protocol: Protocol, extra: Partial<typeof modelTraining.$inferInsert> = {}) {
  const now = ctx.clock.now();
  const run = await upsertRun(ctx.db, model.id, protocol, { lastEventAt: now, staleAt: null, ...extra, updatedAt: now });
  if (model.trainEnd) return { model, run };
  const updated = await modelsRepository.update(ctx.db, model.id, {
    trainHeartbeat: now,
    trainInitialized: model.trainInitialized ?? now,
    trainStart: model.trainStart ?? now,
    updatedAt: now,
  });
  return { model: updated ?? model, run };
}

/** HUB heartbeat: answers the agentId the client echoes next time (one per model, kept across beats). */
export async function recordHeartbeat(ctx: AppContext, model: ModelRow, body: { agent?: unknown; agentId?: unknown }) {
  const before = await trainingRepository.get(ctx.db, model.id);
  const agentId = before?.agentId ?? `agent${newId()}`;
  const agent = typeof body.agent === 'string' ? body.agent.slice(0, 100) : (before?.agent ?? null);
  const wasLive = model.trainHeartbeat !== null && ctx.clock.now().getTime() - model.trainHeartbeat.getTime() < HUB_STALE_AFTER_MS;
  const { model: updated } = await touchRun(ctx, model, 'hub', { agent, agentId });
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
export async function recordEpochMetrics(ctx: AppContext, model: ModelRow, protocol: Protocol, entries: Array<{ epoch: number; metrics: Record<string, unknown> }>, extra: Partial<typeof modelTraining.$inferInsert> = {}) {
  const now = ctx.clock.now();
  let final: Record<string, unknown> | null = null;
  const updated = await ctx.db.transaction(async (tx) => {
    // One writer per model at a time: the HUB client posts metrics and checkpoints from separate threads.
    await tx.execute(sql`SELECT id FROM models WHERE id = ${model.id} FOR UPDATE`);
    const existing = await tx.select().from(modelMetrics).where(eq(modelMetrics.modelId, model.id)).orderBy(asc(modelMetrics.epoch));
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
      await tx
        .insert(modelMetrics)
        .values({ modelId: model.id, epoch, metrics, createdAt: now })
        .onConflictDoUpdate({ target: [modelMetrics.modelId, modelMetrics.epoch], set: { metrics, createdAt: now } });
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
  return updated ?? model;
}

export async function listMetrics(ctx: AppContext, modelId: string) {
  const rows = await modelsRepository.metrics(ctx.db, modelId);
  return rows.map((r) => ({ epoch: r.epoch, ...r.metrics }));
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
    await tx.execute(sql`SELECT id FROM models WHERE id = ${model.id} FOR UPDATE`);
    const [old] = await tx.select().from(modelFiles).where(and(eq(modelFiles.modelId, model.id), eq(modelFiles.kind, file.kind)));
    // Checkpoint uploads run in parallel client threads: an older epoch finishing last must not win.
    if (opts.onlyIfNewer && old && old.epoch !== null && file.epoch !== null && old.epoch > file.epoch) {
      skipped = true;
      return null;
    }
    await modelsRepository.upsertFile(tx, { modelId: model.id, kind: file.kind, name: file.name, blobKey: file.key, bytes: file.bytes, epoch: file.epoch, createdAt: now });
    await modelsRepository.refreshBytes(tx, model.id);
    await tx.update(models).set({ updatedAt: now }).where(eq(models.id, model.id));
    return old ?? null;
  });
  if (skipped) {
    await ctx.blobs.delete(file.key).catch(() => undefined);
    return false;
  }
  if (previous && previous.blobKey !== file.key) {
    const stillUsed = (await ctx.db.select({ k: modelFiles.kind }).from(modelFiles).where(eq(modelFiles.blobKey, previous.blobKey))).length > 0;
    if (!stillUsed) await ctx.blobs.delete(previous.blobKey).catch((err: unknown) => ctx.log.warn({ err, key: previous.blobKey }, 'could not delete replaced model file'));
  }
  return true;
}

export async function fileOf(ctx: AppContext, modelId: string, kind: string) {
  return (await ctx.db.select().from(modelFiles).where(and(eq(modelFiles.modelId, modelId), eq(modelFiles.kind, kind))).limit(1))[0] ?? null;
}

/** An epoch checkpoint makes an unfinished model resumable (HUB status "training"). */
export async function markResumable(ctx: AppContext, model: ModelRow) {
  if (model.hubStatus === 'trained') return model;
  const now = ctx.clock.now();
  return (await modelsRepository.update(ctx.db, model.id, { hubStatus: 'training', updatedAt: now })) ?? model;
}

/**
 * The client's end of a run: train.end is set (spec §4 Trained), the HUB view says "trained" when
 * best weights exist, and the outcome says whether a Stop was honoured. Repeated ends are harmless.
 */
export async function finishRun(
  ctx: AppContext,
  model: ModelRow,
  protocol: Protocol,
  input: { finalMetrics?: Record<string, unknown> | null; epoch?: number | null; names?: string[] | null; extra?: Partial<typeof modelTraining.$inferInsert> },
) {
  const now = ctx.clock.now();
  const run = await trainingRepository.get(ctx.db, model.id);
  const best = await fileOf(ctx, model.id, 'best');
  const metrics = input.finalMetrics ? numericMetrics(input.finalMetrics) : null;
  await upsertRun(ctx.db, model.id, protocol, {
    outcome: run?.cancelRequestedAt ? 'cancelled' : 'completed',
    lastEventAt: now,
    staleAt: null,
    ...(input.finalMetrics ? { finalMetrics: input.finalMetrics } : {}),
    ...input.extra,
    updatedAt: now,
  });
  const updated = await modelsRepository.update(ctx.db, model.id, {
    trainEnd: model.trainEnd ?? now,
    trainStart: model.trainStart ?? now,
    hubStatus: best ? 'trained' : model.hubStatus,
    ...(metrics && Object.keys(metrics).length ? { bestMetrics: metrics } : {}),
    ...(input.epoch !== undefined && input.epoch !== null ? { epochsDone: Math.max(model.epochsDone, input.epoch + 1) } : {}),
    ...(input.names?.length ? { names: input.names } : {}),
    updatedAt: now,
  });
  await publishModel(ctx, updated ?? model, 'model.updated');
  return updated ?? model;
}

/**
 * Stop from the model page: remembered until the run ends, and returned as `cancelled: true` on every
 * Platform answer from then on (traces README: the client only learns of it from a response).
 */
export async function requestStop(ctx: AppContext, userId: string, modelId: string) {
  const model = await ownedModel(ctx, userId, modelId);
  if (model.trainEnd) throw errors.conflict('error/training-finished', 'This training has already finished');
  const run = await trainingRepository.get(ctx.db, model.id);
  if (!run) throw errors.conflict('error/not-training', 'No client has reported training for this model yet');
  const now = ctx.clock.now();
  await upsertRun(ctx.db, model.id, run.protocol, { cancelRequestedAt: run.cancelRequestedAt ?? now, cancelRequestedBy: userId, updatedAt: now });
  await publishModel(ctx, model, 'model.updated');
  return model;
}

export async function cancelRequested(ctx: AppContext, modelId: string) {
  return Boolean((await trainingRepository.get(ctx.db, modelId))?.cancelRequestedAt);
}

const MAX_CHUNK_CHARS = 256 * 1024;

/** Console chunks are keyed by the client's chunkId: out-of-order and repeated deliveries land once. */
export async function appendConsole(ctx: AppContext, model: ModelRow, chunk: { chunkId: number; content: string; lineCount: number }) {
  const now = ctx.clock.now();
  await ctx.db
    .insert(modelConsole)
    .values({ modelId: model.id, chunkId: chunk.chunkId, content: chunk.content.slice(0, MAX_CHUNK_CHARS), lineCount: chunk.lineCount, createdAt: now })
    .onConflictDoNothing();
  await publishModel(ctx, model, 'model.console', { chunkId: chunk.chunkId });
}

export async function listConsole(ctx: AppContext, modelId: string, after: number, limit: number) {
  return ctx.db
    .select({ chunkId: modelConsole.chunkId, content: modelConsole.content, lineCount: modelConsole.lineCount, created: modelConsole.createdAt })
    .from(modelConsole)
    .where(and(eq(modelConsole.modelId, modelId), gt(modelConsole.chunkId, after)))
    .orderBy(asc(modelConsole.chunkId))
    .limit(limit);
}

/**
 * Marks runs that stopped reporting without an end (the client crashed or lost its network). The mark
 * is informational: dates, files and metrics stay, spec §4 already shows Timeout from the dates, and
 * any later event from the client clears it.
 */
export async function markStaleRuns(ctx: AppContext): Promise<string[]> {
  const now = ctx.clock.now();
  const marked: string[] = [];
  for (const [protocol, after] of [
    ['hub', HUB_STALE_AFTER_MS],
    ['platform', PLATFORM_STALE_AFTER_MS],
  ] as const) {
    const rows = await ctx.db
      .update(modelTraining)
      .set({ staleAt: now, updatedAt: now })
      .where(
        and(
          eq(modelTraining.protocol, protocol),
          eq(modelTraining.outcome, 'running'),
          isNull(modelTraining.staleAt),
          lt(modelTraining.lastEventAt, new Date(now.getTime() - after)),
          sql`EXISTS (SELECT 1 FROM models m WHERE m.id = ${modelTraining.modelId} AND m.train_end IS NULL)`,
        ),
      )
      .returning({ modelId: modelTraining.modelId });
    marked.push(...rows.map((r) => r.modelId));
  }
  for (const id of marked) {
    const model = await modelsRepository.byId(ctx.db, id);
    if (model) await publishModel(ctx, model, 'model.updated');
  }
  return marked;
}

export { upsertRun };
