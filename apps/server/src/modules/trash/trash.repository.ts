import { and, desc, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, projects, trashTotals } from '../../platform/db/schema.js';

/** Where a trash page starts: after the (deleted, id) of the previous page's last item. */
export interface TrashAfter {
  deleted: Date;
  id: string;
}

type TrashTable = typeof datasets | typeof projects | typeof models;

/** The user's trashed rows of one table, newest deletion first, after the cursor (index of migration 0032). */
function inTrash(table: TrashTable, userId: string, after: TrashAfter | null): SQL {
  const base = and(eq(table.userId, userId), isNotNull(table.deletedAt))!;
  if (!after) return base;
  return and(base, or(lt(table.deletedAt, after.deleted), and(eq(table.deletedAt, after.deleted), lt(table.id, after.id))))!;
}

/** What sits in the trash: per user for the trash page (keyset pages, ADR 0042), and past the retention for the purge job. */
export const trashRepository = {
  datasetsPage: (db: Db, userId: string, after: TrashAfter | null, limit: number) =>
    db
      .select()
      .from(datasets)
      .where(inTrash(datasets, userId, after))
      .orderBy(desc(datasets.deletedAt), desc(datasets.id))
      .limit(limit),
  projectsPage: (db: Db, userId: string, after: TrashAfter | null, limit: number) =>
    db
      .select()
      .from(projects)
      .where(inTrash(projects, userId, after))
      .orderBy(desc(projects.deletedAt), desc(projects.id))
      .limit(limit),
  modelsPage: (db: Db, userId: string, after: TrashAfter | null, limit: number) =>
    db
      .select()
      .from(models)
      .where(inTrash(models, userId, after))
      .orderBy(desc(models.deletedAt), desc(models.id))
      .limit(limit),
  /** Names of these projects (a model's parent on the page), trashed or not. */
  projectNames: async (db: Db, ids: string[]) =>
    ids.length
      ? new Map((await db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, ids))).map((r) => [r.id, r.name]))
      : new Map<string, string>(),
  /** Bytes of the models that went to the trash with each of these projects. */
  bytesDeletedWith: async (db: Db, projectIds: string[]) => {
    if (!projectIds.length) return new Map<string, number>();
    const rows = await db
      .select({ projectId: models.projectId, bytes: sql<string>`coalesce(sum(${models.bytes}), 0)` })
      .from(models)
      .where(and(inArray(models.projectId, projectIds), isNotNull(models.deletedAt), eq(models.deletedWithProject, true)))
      .groupBy(models.projectId);
    return new Map(rows.map((r) => [r.projectId!, Number(r.bytes)]));
  },
  /**
   * How many datasets, projects and models the user's trash holds and their bytes: one row of
   * trash_totals, kept by the triggers of migration 0036 (ADR 0042), so O(1) however large the trash.
   */
  totals: async (db: Db, userId: string) => {
    const [row] = await db.select({ count: trashTotals.count, bytes: trashTotals.bytes }).from(trashTotals).where(eq(trashTotals.userId, userId));
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  },
  /** The same totals summed over the rows (what trash_totals must always equal; tests and benches compare). */
  totalsScanned: async (db: Db, userId: string) => {
    const sum = (table: TrashTable, bytes: SQL) =>
      db
        .select({ count: sql<string>`count(*)`, bytes: sql<string>`coalesce(sum(${bytes}), 0)` })
        .from(table)
        .where(inTrash(table, userId, null));
    const [[d], [p], [m]] = await Promise.all([
      sum(datasets, sql`${datasets.bytes}`),
      sum(projects, sql`${projects.imageBytes}`),
      sum(models, sql`${models.bytes}`),
    ]);
    return {
      count: Number(d!.count) + Number(p!.count) + Number(m!.count),
      bytes: Number(d!.bytes) + Number(p!.bytes) + Number(m!.bytes),
    };
  },
  projectsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(projects).where(lt(projects.deletedAt, cutoff)),
  modelsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(models).where(lt(models.deletedAt, cutoff)),
  datasetsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(datasets).where(lt(datasets.deletedAt, cutoff)),
};
