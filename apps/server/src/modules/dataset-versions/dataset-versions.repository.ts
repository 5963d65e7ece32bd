import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasetVersions, datasets, models, modelTraining, users } from '../../platform/db/schema.js';

export type VersionRow = typeof datasetVersions.$inferSelect;
export type VersionInsert = typeof datasetVersions.$inferInsert;

/** One image as a version (or the working state) sees it: identity, place, labels and where its bytes are. */
export interface VersionImageRow {
  /** The revision row's id (the raw-image route and readImageBytes take it). */
  id: string;
  /** The image's stable id across revisions (ADR 0037). */
  imageId: string;
  name: string;
  split: string;
  width: number | null;
  height: number | null;
  format: string | null;
  className: string | null;
  labels: number[][];
  sha256: string | null;
  bytes: number | null;
  /** NULL: a range of the dataset's archive (`source`); else the content-addressed blob's key (ADR 0037). */
  blobKey: string | null;
  source: ImageSource;
}
export type ImageSource = { dataOffset: number; compressedSize: number; uncompressedSize: number; compressionMethod: number; format: string };

/** Rows a version at `seq` sees (ADR 0037): created at or before it and not yet ended then; `null` is the working state. */
const visibleAt = (seq: number | null) => (seq === null ? sql`rev_to IS NULL` : sql`rev_from <= ${seq} AND (rev_to IS NULL OR rev_to > ${seq})`);

type RawImage = {
  id: string;
  image_id: string;
  name: string;
  split: string;
  width: number | null;
  height: number | null;
  format: string | null;
  class_name: string | null;
  labels: number[][] | string;
  sha256: string | null;
  bytes: number | string | null;
  blob_key: string | null;
  source: ImageSource | string;
};
const toImage = (r: RawImage): VersionImageRow => ({
  id: r.id,
  imageId: r.image_id,
  name: r.name,
  split: r.split,
  width: r.width,
  height: r.height,
  format: r.format,
  className: r.class_name,
  labels: typeof r.labels === 'string' ? (JSON.parse(r.labels) as number[][]) : r.labels,
  sha256: r.sha256,
  bytes: r.bytes === null ? null : Number(r.bytes),
  blobKey: r.blob_key,
  source: typeof r.source === 'string' ? (JSON.parse(r.source) as ImageSource) : r.source,
});

export const datasetVersionsRepository = {
  /** The working state's edit sequence number, unlocked (a diff against the working state reads it). */
  datasetSeq: async (db: Db, datasetId: string) => {
    const res = await db.execute(sql`SELECT seq, classes FROM datasets WHERE id = ${datasetId}`);
    const row = (res as unknown as { rows: Array<{ seq: number | string; classes: unknown }> }).rows[0];
    return row ? { seq: Number(row.seq), classes: row.classes as string[] | null } : null;
  },
  /**
   * Locks the dataset row and raises `frozen_seq` to its seq in one statement (a version is being saved
   * at that seq: rows it sees are never changed in place again), answering the seq, classes, stats and
   * status of that locked state.
   */
  lockAndFreeze: async (tx: Db, datasetId: string) => {
    const res = await tx.execute(sql`UPDATE datasets SET frozen_seq = GREATEST(frozen_seq, seq) WHERE id = ${datasetId} RETURNING seq, classes, stats, status`);
    const row = (res as unknown as { rows: Array<{ seq: number | string; classes: unknown; stats: unknown; status: string }> }).rows[0];
    return row
      ? {
          seq: Number(row.seq),
          classes: (typeof row.classes === 'string' ? JSON.parse(row.classes) : row.classes) as string[] | null,
          stats: (typeof row.stats === 'string' ? JSON.parse(row.stats) : row.stats) as { summary?: Record<string, unknown> } | null,
          status: row.status,
        }
      : null;
  },
  /**
   * Inserts a version with the next number of its dataset (numbers are never reused: trashed versions
   * keep theirs) in one statement, answering it with its author's username.
   */
  insertNext: async (tx: Db, row: Omit<VersionInsert, 'number'>) => {
    const [out] = await tx
      .insert(datasetVersions)
      .values({
        ...row,
        number: sql`(SELECT coalesce(max(number), 0) + 1 FROM dataset_versions WHERE dataset_id = ${row.datasetId})`,
      })
      .returning({
        ...getTableColumns(datasetVersions),
        username: sql<string | null>`(SELECT username FROM users WHERE users.id = ${datasetVersions.createdBy})`,
      });
    const { username, ...version } = out!;
    return { version: version as VersionRow, username: username ?? null };
  },
  update: async (db: Db, id: string, patch: Partial<VersionInsert>) =>
    (await db.update(datasetVersions).set(patch).where(eq(datasetVersions.id, id)).returning())[0] ?? null,
  remove: async (db: Db, id: string) => {
    await db.delete(datasetVersions).where(eq(datasetVersions.id, id));
  },
  byId: async (db: Db, id: string) => (await db.select().from(datasetVersions).where(eq(datasetVersions.id, id)))[0] ?? null,
  byNumber: async (db: Db, datasetId: string, number: number) =>
    (
      await db
        .select()
        .from(datasetVersions)
        .where(and(eq(datasetVersions.datasetId, datasetId), eq(datasetVersions.number, number)))
    )[0] ?? null,
  /** The newest version not in the trash. */
  latest: async (db: Db, datasetId: string) =>
    (
      await db
        .select()
        .from(datasetVersions)
        .where(and(eq(datasetVersions.datasetId, datasetId), isNull(datasetVersions.deletedAt)))
        .orderBy(desc(datasetVersions.number))
        .limit(1)
    )[0] ?? null,
  /** Versions of a dataset, newest first; the trashed ones only when asked. */
  list: (db: Db, datasetId: string, withDeleted = false) =>
    db
      .select()
      .from(datasetVersions)
      .where(and(eq(datasetVersions.datasetId, datasetId), withDeleted ? undefined : isNull(datasetVersions.deletedAt)))
      .orderBy(desc(datasetVersions.number)),
  /** Trashed versions of the datasets a user owns (the trash page), with their dataset's name. */
  trashedOf: (db: Db, userId: string) =>
    db
      .select({ version: datasetVersions, datasetName: datasets.name })
      .from(datasetVersions)
      .innerJoin(datasets, eq(datasets.id, datasetVersions.datasetId))
      .where(and(eq(datasets.userId, userId), isNotNull(datasetVersions.deletedAt), isNull(datasets.deletedAt))),
  deletedBefore: (db: Db, cutoff: Date) => db.select().from(datasetVersions).where(lt(datasetVersions.deletedAt, cutoff)),
  numbers: async (db: Db, ids: string[]) => {
    if (!ids.length) return new Map<string, number>();
    const rows = await db.select({ id: datasetVersions.id, number: datasetVersions.number }).from(datasetVersions).where(inArray(datasetVersions.id, ids));
    return new Map(rows.map((r) => [r.id, r.number]));
  },
  usernames: async (db: Db, ids: string[]) => {
    if (!ids.length) return new Map<string, string>();
    const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.username]));
  },

  /** Every image the version at `seq` sees (null: the working state), in zip order: split, name, image id. */
  imagesAt: async (db: Db, datasetId: string, seq: number | null): Promise<VersionImageRow[]> => {
    const res = await db.execute(sql`
      SELECT id, image_id, name, split, width, height, format, class_name, labels, sha256, bytes, blob_key, source
      FROM dataset_images WHERE dataset_id = ${datasetId} AND ${visibleAt(seq)}
      ORDER BY split, name, image_id`);
    return (res as unknown as { rows: RawImage[] }).rows.map(toImage);
  },
  /** Images per split the version at `seq` sees. */
  splitCountsAt: async (db: Db, datasetId: string, seq: number | null) => {
    const res = await db.execute(sql`
      SELECT split, count(*)::int AS n FROM dataset_images WHERE dataset_id = ${datasetId} AND ${visibleAt(seq)} GROUP BY split`);
    const counts = { train: 0, val: 0, test: 0 } as Record<string, number>;
    for (const r of (res as unknown as { rows: Array<{ split: string; n: number }> }).rows) counts[r.split] = Number(r.n);
    return counts as { train: number; val: number; test: number };
  },
  /**
   * Only the rows that differ between two states (ADR 0038): a row both sides see is the same revision
   * and cannot differ, so a diff reads the revisions either side sees and the other does not.
   */
  changedBetween: async (db: Db, datasetId: string, a: number, b: number | null): Promise<{ from: VersionImageRow[]; to: VersionImageRow[] }> => {
    const res = await db.execute(sql`
      SELECT id, image_id, name, split, width, height, format, class_name, labels, sha256, bytes, blob_key, source,
             (${visibleAt(a)}) AS in_a, (${visibleAt(b)}) AS in_b
      FROM dataset_images
      WHERE dataset_id = ${datasetId} AND ((${visibleAt(a)}) <> (${visibleAt(b)}))
      ORDER BY split, name, image_id`);
    const rows = (res as unknown as { rows: Array<RawImage & { in_a: boolean; in_b: boolean }> }).rows;
    return { from: rows.filter((r) => r.in_a).map(toImage), to: rows.filter((r) => r.in_b).map(toImage) };
  },

  /**
   * Objects per class index (detect, segment, pose, obb: label rows) and images per class name
   * (classify) the state at `seq` holds: the histogram of a diff, from labels only.
   */
  histogramAt: async (db: Db, datasetId: string, seq: number | null) => {
    const byIndex = await db.execute(sql`
      SELECT (r.row->>0)::int AS cls, count(*)::int AS n
      FROM dataset_images i CROSS JOIN LATERAL jsonb_array_elements(i.labels) AS r(row)
      WHERE i.dataset_id = ${datasetId} AND ${visibleAt(seq)} AND i.class_name IS NULL
      GROUP BY 1`);
    const byName = await db.execute(sql`
      SELECT class_name AS name, count(*)::int AS n FROM dataset_images
      WHERE dataset_id = ${datasetId} AND ${visibleAt(seq)} AND class_name IS NOT NULL GROUP BY 1`);
    return {
      byIndex: (byIndex as unknown as { rows: Array<{ cls: number; n: number }> }).rows.map((r) => ({ cls: Number(r.cls), n: Number(r.n) })),
      byName: (byName as unknown as { rows: Array<{ name: string; n: number }> }).rows.map((r) => ({ name: r.name, n: Number(r.n) })),
    };
  },
  /** Models trained on a version: lineage (ADR 0038), live ones only. */
  modelsOf: (db: Db, versionId: string) =>
    db
      .select({
        id: models.id,
        name: models.name,
        projectId: models.projectId,
        userId: models.userId,
        teamId: models.teamId,
        privacy: models.privacy,
        deletedAt: models.deletedAt,
      })
      .from(models)
      .where(and(eq(models.datasetVersionId, versionId), isNull(models.deletedAt)))
      .orderBy(asc(models.createdAt)),
  modelCounts: async (db: Db, versionIds: string[]) => {
    if (!versionIds.length) return new Map<string, number>();
    const rows = await db
      .select({ id: models.datasetVersionId, n: sql<number>`count(*)::int` })
      .from(models)
      .where(and(inArray(models.datasetVersionId, versionIds), isNull(models.deletedAt)))
      .groupBy(models.datasetVersionId);
    return new Map(rows.map((r) => [r.id!, Number(r.n)]));
  },
  /** Records the version a run trained on, on its model and its run. */
  recordLineage: async (db: Db, modelId: string, versionId: string) => {
    await db.update(models).set({ datasetVersionId: versionId }).where(eq(models.id, modelId));
    await db.update(modelTraining).set({ datasetVersionId: versionId }).where(eq(modelTraining.modelId, modelId));
  },
};
