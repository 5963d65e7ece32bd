import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { inTeamsOf } from '../access/index.js';
import { modelExports, modelFiles, models, projects, users } from '../../platform/db/schema.js';

export type ProjectRow = typeof projects.$inferSelect;

export const projectsRepository = {
  byId: async (db: Db, id: string) => (await db.select().from(projects).where(eq(projects.id, id)).limit(1))[0] ?? null,
  bySlug: async (db: Db, userId: string, slug: string) =>
    (
      await db
        .select()
        .from(projects)
        .where(and(eq(projects.userId, userId), eq(projects.slug, slug)))
        .limit(1)
    )[0] ?? null,
  /** Serialises creation by one owner inside a transaction, so two creations never pick the same slug. */
  lockOwnerForCreate: async (tx: Db, userId: string) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`projects:${userId}`}))`);
  },
  slugsLike: async (db: Db, userId: string, base: string) =>
    new Set(
      (
        await db
          .select({ slug: projects.slug })
          .from(projects)
          .where(and(eq(projects.userId, userId), sql`${projects.slug} LIKE ${`${base}%`}`))
      ).map((r) => r.slug),
    ),
  insert: async (db: Db, row: typeof projects.$inferInsert) => (await db.insert(projects).values(row).returning())[0]!,
  update: async (db: Db, id: string, patch: Partial<typeof projects.$inferInsert>) =>
    (await db.update(projects).set(patch).where(eq(projects.id, id)).returning())[0] ?? null,
  remove: async (db: Db, id: string) => db.delete(projects).where(eq(projects.id, id)),

  /** Owner's items, or public ones; newest first; keyset pagination by (updated_at, id). */
  list: async (
    db: Db,
    opts: { ownerId?: string; publicOnly?: boolean; includeDeleted?: boolean; includeArchived?: boolean; limit: number; after?: ProjectRow | null },
  ) => {
    const where: SQL[] = [];
    // The owner's items and the items of the teams the owner belongs to (ADR 0008).
    if (opts.ownerId) where.push(or(eq(projects.userId, opts.ownerId), inTeamsOf(opts.ownerId, projects.teamId))!);
    if (opts.publicOnly) where.push(eq(projects.privacy, 'public'));
    if (!opts.includeDeleted) where.push(isNull(projects.deletedAt));
    if (!opts.includeArchived) where.push(isNull(projects.archivedAt));
    const base = and(...where);
    const page = opts.after
      ? and(base, or(lt(projects.updatedAt, opts.after.updatedAt), and(eq(projects.updatedAt, opts.after.updatedAt), lt(projects.id, opts.after.id))))
      : base;
    const rows = await db.select().from(projects).where(page).orderBy(desc(projects.updatedAt), desc(projects.id)).limit(opts.limit);
    const total = Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(projects)
          .where(base)
      )[0]?.n ?? 0,
    );
    return { rows, total };
  },

  /** Model count, bytes and per-export sizes per project (spec §3 models/totals). */
  totals: async (db: Db, ids: string[]) => {
    const out = new Map<string, { count: number; bytes: number; exports: Record<string, number> }>();
    if (ids.length === 0) return out;
    // Both aggregates sent together (two statements, one wait).
    const [counts, files] = await Promise.all([
      db
        .select({ projectId: models.projectId, count: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${models.bytes}), 0)` })
        .from(models)
        .where(and(inArray(models.projectId, ids), isNull(models.deletedAt)))
        .groupBy(models.projectId),
      db
        .select({ projectId: models.projectId, kind: modelFiles.kind, bytes: sql<number>`sum(${modelFiles.bytes})` })
        .from(modelFiles)
        .innerJoin(models, eq(models.id, modelFiles.modelId))
        // Exports only: files an export job made (weights uploaded or trained here are not exports).
        .where(
          and(
            inArray(models.projectId, ids),
            isNull(models.deletedAt),
            sql`EXISTS (SELECT 1 FROM ${modelExports} e WHERE e.model_id = ${modelFiles.modelId} AND e.format = ${modelFiles.kind} AND e.status = 'succeeded')`,
          ),
        )
        .groupBy(models.projectId, modelFiles.kind),
    ]);
    for (const c of counts) out.set(c.projectId!, { count: Number(c.count), bytes: Number(c.bytes), exports: {} });
    for (const f of files) {
      const t = out.get(f.projectId!) ?? { count: 0, bytes: 0, exports: {} };
      t.exports[f.kind] = Number(f.bytes);
      out.set(f.projectId!, t);
    }
    return out;
  },

  /** Project names by id, one query. */
  names: async (db: Db, ids: string[]) => {
    if (ids.length === 0) return new Map<string, string>();
    const rows = await db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  },
  owners: async (db: Db, ids: string[]) => {
    if (ids.length === 0) return new Map<string, string>();
    const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.username]));
  },
  // A project carries its models: privacy, trash and restore cascade to them (spec §4).
  cascadePrivacy: async (db: Db, projectId: string, privacy: ProjectRow['privacy'], now: Date) => {
    await db.update(models).set({ privacy, updatedAt: now }).where(eq(models.projectId, projectId));
  },
  trashModels: async (db: Db, projectId: string, now: Date) => {
    await db
      .update(models)
      .set({ deletedAt: now, deletedWithProject: true })
      .where(and(eq(models.projectId, projectId), isNull(models.deletedAt)));
  },
  restoreModels: async (db: Db, projectId: string) => {
    await db
      .update(models)
      .set({ deletedAt: null, deletedWithProject: false })
      .where(and(eq(models.projectId, projectId), eq(models.deletedWithProject, true)));
  },
  modelIds: async (db: Db, projectId: string) =>
    new Set((await db.select({ id: models.id }).from(models).where(eq(models.projectId, projectId))).map((m) => m.id)),
  /** Drag-to-reorder: order starts at 1, in one transaction. */
  orderModels: async (db: Db, modelIds: string[]) => {
    await db.transaction(async (tx) => {
      for (const [i, mid] of modelIds.entries())
        await tx
          .update(models)
          .set({ order: i + 1 })
          .where(eq(models.id, mid));
    });
  },
};
