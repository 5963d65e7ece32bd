import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { inTeamsOf } from '../access/index.js';
import { modelFiles, modelMetrics, models, modelTraining, users } from '../../platform/db/schema.js';

export type ModelRow = typeof models.$inferSelect;
export type ModelFileRow = typeof modelFiles.$inferSelect;
export type ModelTrainingRow = typeof modelTraining.$inferSelect;

export const modelsRepository = {
  byId: async (db: Db, id: string) => (await db.select().from(models).where(eq(models.id, id)).limit(1))[0] ?? null,
  byIds: async (db: Db, ids: string[]) => (ids.length ? db.select().from(models).where(inArray(models.id, ids)) : []),
  insert: async (db: Db, row: typeof models.$inferInsert) => (await db.insert(models).values(row).returning())[0]!,
  /** Serialises model creation of one owner inside a transaction; answers their live model count and plan. */
  lockOwnerForCreate: async (tx: Db, userId: string) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`models:${userId}`}))`);
    const live = Number(
      (
        await tx
          .select({ n: sql<number>`count(*)` })
          .from(models)
          .where(and(eq(models.userId, userId), isNull(models.deletedAt)))
      )[0]?.n ?? 0,
    );
    const plan = (await tx.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1))[0]?.plan ?? null;
    return { live, plan };
  },
  update: async (db: Db, id: string, patch: Partial<typeof models.$inferInsert>) =>
    (await db.update(models).set(patch).where(eq(models.id, id)).returning())[0] ?? null,
  remove: async (db: Db, id: string) => db.delete(models).where(eq(models.id, id)),
  slugsLike: async (db: Db, userId: string, projectId: string | null, base: string) =>
    new Set(
      (
        await db
          .select({ slug: models.slug })
          .from(models)
          .where(and(eq(models.userId, userId), projectId ? eq(models.projectId, projectId) : isNull(models.projectId), sql`${models.slug} LIKE ${`${base}%`}`))
      ).map((r) => r.slug),
    ),
  bySlug: async (db: Db, userId: string, projectId: string, slug: string) =>
    (
      await db
        .select()
        .from(models)
        .where(and(eq(models.userId, userId), eq(models.projectId, projectId), eq(models.slug, slug)))
        .limit(1)
    )[0] ?? null,

  liveInProject: (db: Db, projectId: string) =>
    db
      .select()
      .from(models)
      .where(and(eq(models.projectId, projectId), isNull(models.deletedAt))),
  inProject: async (db: Db, projectId: string, includeDeleted = false) =>
    db
      .select()
      .from(models)
      .where(and(eq(models.projectId, projectId), includeDeleted ? undefined : isNull(models.deletedAt)))
      .orderBy(asc(models.order), desc(models.updatedAt)),

  list: async (
    db: Db,
    opts: {
      ownerId?: string;
      projectId?: string;
      publicOnly?: boolean;
      includeDeleted?: boolean;
      includeArchived?: boolean;
      limit: number;
      after?: ModelRow | null;
    },
  ) => {
    const where: SQL[] = [];
    // The owner's items and the items of the teams the owner belongs to (ADR 0008).
    if (opts.ownerId) where.push(or(eq(models.userId, opts.ownerId), inTeamsOf(opts.ownerId, models.teamId))!);
    if (opts.projectId) where.push(eq(models.projectId, opts.projectId));
    if (opts.publicOnly) where.push(eq(models.privacy, 'public'));
    if (!opts.includeDeleted) where.push(isNull(models.deletedAt));
    if (!opts.includeArchived) where.push(isNull(models.archivedAt));
    const base = and(...where);
    const page = opts.after
      ? and(base, or(lt(models.updatedAt, opts.after.updatedAt), and(eq(models.updatedAt, opts.after.updatedAt), lt(models.id, opts.after.id))))
      : base;
    const rows = await db.select().from(models).where(page).orderBy(desc(models.updatedAt), desc(models.id)).limit(opts.limit);
    const total = Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(models)
          .where(base)
      )[0]?.n ?? 0,
    );
    return { rows, total };
  },

  files: async (db: Db, modelIds: string[]) => (modelIds.length ? db.select().from(modelFiles).where(inArray(modelFiles.modelId, modelIds)) : []),
  upsertFile: async (db: Db, row: typeof modelFiles.$inferInsert) =>
    db
      .insert(modelFiles)
      .values(row)
      .onConflictDoUpdate({
        target: [modelFiles.modelId, modelFiles.kind],
        set: { name: row.name, blobKey: row.blobKey, bytes: row.bytes, epoch: row.epoch ?? null, createdAt: row.createdAt },
      }),
  /** Recomputes totals.bytes from the files, in the same statement as the caller's change. */
  refreshBytes: async (db: Db, modelId: string) =>
    db.execute(sql`UPDATE models SET bytes = (SELECT coalesce(sum(bytes), 0) FROM model_files WHERE model_id = ${modelId}) WHERE id = ${modelId}`),
  metrics: async (db: Db, modelId: string) => db.select().from(modelMetrics).where(eq(modelMetrics.modelId, modelId)).orderBy(asc(modelMetrics.epoch)),
  /** The run state training records (modules/training writes it), read here to present models. */
  trainingStates: async (db: Db, modelIds: string[]) =>
    modelIds.length ? db.select().from(modelTraining).where(inArray(modelTraining.modelId, modelIds)) : [],
};
