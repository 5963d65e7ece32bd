import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, modelConsole, modelFiles, modelMetrics, models, modelTraining, projects } from '../../platform/db/schema.js';

export type TrainingRow = typeof modelTraining.$inferSelect;
export type TrainingPatch = Partial<typeof modelTraining.$inferInsert>;
export type Protocol = 'hub' | 'platform';

/**
 * Every query of the training lifecycle: the run row (model_training), per-epoch metrics, console
 * chunks, the model's files as training replaces them, and the few lookups the clients' project and
 * model names need. Plain functions taking `db | tx`, like the other repositories.
 */
export const trainingRepository = {
  get: async (db: Db, modelId: string) => (await db.select().from(modelTraining).where(eq(modelTraining.modelId, modelId)).limit(1))[0] ?? null,
  byIds: async (db: Db, ids: string[]) => (ids.length ? db.select().from(modelTraining).where(inArray(modelTraining.modelId, ids)) : []),
  byRunId: async (db: Db, runId: string) => (await db.select().from(modelTraining).where(eq(modelTraining.runId, runId)).limit(1))[0] ?? null,
  exists: async (db: Db, modelId: string) =>
    (await db.select({ id: modelTraining.modelId }).from(modelTraining).where(eq(modelTraining.modelId, modelId)).limit(1)).length > 0,

  /** Creates or updates the run row; `patch` values win, `insertOnly` values only seed a new row. */
  upsert: async (db: Db, modelId: string, protocol: Protocol, patch: TrainingPatch, insertOnly: TrainingPatch = {}) => {
    const now = patch.updatedAt ?? new Date();
    const rows = await db
      .insert(modelTraining)
      .values({ modelId, protocol, ...insertOnly, ...patch, updatedAt: now })
      .onConflictDoUpdate({ target: modelTraining.modelId, set: { ...patch, updatedAt: now } })
      .returning();
    return rows[0]!;
  },

  /** One writer per model at a time (the HUB client posts metrics and checkpoints from separate threads). */
  lockModel: async (db: Db, modelId: string) => db.execute(sql`SELECT id FROM models WHERE id = ${modelId} FOR UPDATE`),
  touchModel: async (db: Db, modelId: string, now: Date) => db.update(models).set({ updatedAt: now }).where(eq(models.id, modelId)),

  metrics: async (db: Db, modelId: string) => db.select().from(modelMetrics).where(eq(modelMetrics.modelId, modelId)).orderBy(asc(modelMetrics.epoch)),
  upsertMetrics: async (db: Db, modelId: string, epoch: number, metrics: Record<string, unknown>, now: Date) =>
    db
      .insert(modelMetrics)
      .values({ modelId, epoch, metrics, createdAt: now })
      .onConflictDoUpdate({ target: [modelMetrics.modelId, modelMetrics.epoch], set: { metrics, createdAt: now } }),

  file: async (db: Db, modelId: string, kind: string) =>
    (
      await db
        .select()
        .from(modelFiles)
        .where(and(eq(modelFiles.modelId, modelId), eq(modelFiles.kind, kind)))
        .limit(1)
    )[0] ?? null,
  blobInUse: async (db: Db, blobKey: string) =>
    (await db.select({ k: modelFiles.kind }).from(modelFiles).where(eq(modelFiles.blobKey, blobKey)).limit(1)).length > 0,

  /** Console chunks are keyed by the client's chunkId: out-of-order and repeated deliveries land once. */
  insertConsole: async (db: Db, row: typeof modelConsole.$inferInsert) => db.insert(modelConsole).values(row).onConflictDoNothing(),
  console: async (db: Db, modelId: string, after: number, limit: number) =>
    db
      .select({ chunkId: modelConsole.chunkId, content: modelConsole.content, lineCount: modelConsole.lineCount, created: modelConsole.createdAt })
      .from(modelConsole)
      .where(and(eq(modelConsole.modelId, modelId), gt(modelConsole.chunkId, after)))
      .orderBy(asc(modelConsole.chunkId))
      .limit(limit),

  /** Running runs silent since `before` (candidates for Timeout, ADR 0020), with the epochs their model reported. */
  silentSince: async (db: Db, before: Date) =>
    db
      .select({ modelId: modelTraining.modelId, protocol: modelTraining.protocol, lastEventAt: modelTraining.lastEventAt, epochsDone: models.epochsDone })
      .from(modelTraining)
      .innerJoin(models, eq(models.id, modelTraining.modelId))
      .where(and(eq(modelTraining.outcome, 'running'), lt(modelTraining.lastEventAt, before), isNull(models.trainEnd), isNull(models.deletedAt))),

  /** The user's runs for Active jobs: queued, running or timed out, and those that ended Stopped or Failed since `since`. */
  activeRuns: async (db: Db, userId: string, since: Date) =>
    db
      .select({ run: modelTraining, model: models })
      .from(modelTraining)
      .innerJoin(models, eq(models.id, modelTraining.modelId))
      .where(
        and(
          eq(models.userId, userId),
          isNull(models.deletedAt),
          or(
            inArray(modelTraining.outcome, ['queued', 'running', 'timeout']),
            and(inArray(modelTraining.outcome, ['failed', 'cancelled']), gt(modelTraining.endedAt, since)),
          ),
        ),
      )
      .orderBy(desc(modelTraining.updatedAt))
      .limit(100),

  /** A run trained again starts clean: the earlier run's epochs and console go (ADR 0020). */
  clearRunData: async (db: Db, modelId: string) => {
    await db.delete(modelMetrics).where(eq(modelMetrics.modelId, modelId));
    await db.delete(modelConsole).where(eq(modelConsole.modelId, modelId));
  },

  /** The user's live project a client names by slug, or else by its display name (a trashed project keeps its slug). */
  liveProjectBySlug: async (db: Db, userId: string, slug: string) =>
    (
      await db
        .select()
        .from(projects)
        .where(and(eq(projects.userId, userId), eq(projects.slug, slug), isNull(projects.deletedAt)))
        .limit(1)
    )[0] ?? null,
  liveProjectByName: async (db: Db, userId: string, name: string) =>
    (
      await db
        .select()
        .from(projects)
        .where(and(eq(projects.userId, userId), eq(projects.name, name), isNull(projects.deletedAt)))
        .limit(1)
    )[0] ?? null,
  /** The newest live model of a project with this display name (early Platform clients name runs, not models). */
  latestLiveModelByName: async (db: Db, projectId: string, name: string) =>
    (
      await db
        .select()
        .from(models)
        .where(and(eq(models.projectId, projectId), eq(models.name, name), isNull(models.deletedAt)))
        .orderBy(desc(models.createdAt))
        .limit(1)
    )[0] ?? null,

  /** What the Platform client's account summary counts: the user's live projects, datasets and models. */
  liveCounts: async (db: Db, userId: string) => {
    const counted = async (table: typeof projects | typeof datasets | typeof models) =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(table)
            .where(and(eq(table.userId, userId), isNull(table.deletedAt)))
        )[0]?.n ?? 0,
      );
    return { projects: await counted(projects), datasets: await counted(datasets), models: await counted(models) };
  },
};
