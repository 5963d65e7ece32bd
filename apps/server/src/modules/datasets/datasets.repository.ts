import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { inTeamsOf } from '../access/index.js';
import { datasetImages, datasets, users } from '../../platform/db/schema.js';

export type DatasetRow = typeof datasets.$inferSelect;
export type DatasetImageRow = typeof datasetImages.$inferSelect;

export const datasetsRepository = {
  /** Names by id (one query), for items that point at datasets: a model's training data. */
  names: async (db: Db, ids: string[]) => {
    if (ids.length === 0) return new Map<string, string>();
    const rows = await db.select({ id: datasets.id, name: datasets.name }).from(datasets).where(inArray(datasets.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  },
  byId: async (db: Db, id: string) => (await db.select().from(datasets).where(eq(datasets.id, id)).limit(1))[0] ?? null,
  byIds: async (db: Db, ids: string[]) => (ids.length ? db.select().from(datasets).where(inArray(datasets.id, ids)) : []),
  bySlug: async (db: Db, userId: string, slug: string) =>
    (
      await db
        .select()
        .from(datasets)
        .where(and(eq(datasets.userId, userId), eq(datasets.slug, slug)))
        .limit(1)
    )[0] ?? null,
  /** Serialises creation by one owner inside a transaction, so two creations never pick the same slug. */
  lockOwnerForCreate: async (tx: Db, userId: string) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`datasets:${userId}`}))`);
  },
  slugsLike: async (db: Db, userId: string, base: string) =>
    new Set(
      (
        await db
          .select({ slug: datasets.slug })
          .from(datasets)
          .where(and(eq(datasets.userId, userId), sql`${datasets.slug} LIKE ${`${base}%`}`))
      ).map((r) => r.slug),
    ),
  insert: async (db: Db, row: typeof datasets.$inferInsert) => (await db.insert(datasets).values(row).returning())[0]!,
  update: async (db: Db, id: string, patch: Partial<typeof datasets.$inferInsert>) =>
    (await db.update(datasets).set(patch).where(eq(datasets.id, id)).returning())[0] ?? null,

  list: async (
    db: Db,
    opts: {
      ownerId?: string;
      publicOnly?: boolean;
      task?: string;
      provider?: string;
      privacy?: string;
      processedOnly?: boolean;
      includeDeleted?: boolean;
      includeArchived?: boolean;
      limit: number;
      after?: DatasetRow | null;
    },
  ) => {
    const where: SQL[] = [];
    // The owner's items and the items of the teams the owner belongs to (issue 11).
    if (opts.ownerId) where.push(or(eq(datasets.userId, opts.ownerId), inTeamsOf(opts.ownerId, datasets.teamId))!);
    if (opts.publicOnly) where.push(eq(datasets.privacy, 'public'));
    if (opts.task) where.push(eq(datasets.task, opts.task));
    if (opts.provider) where.push(eq(datasets.provider, opts.provider));
    if (opts.privacy) where.push(eq(datasets.privacy, opts.privacy as 'private'));
    if (opts.processedOnly) where.push(sql`${datasets.processedAt} IS NOT NULL`);
    if (!opts.includeDeleted) where.push(isNull(datasets.deletedAt));
    if (!opts.includeArchived) where.push(isNull(datasets.archivedAt));
    const base = and(...where);
    const page = opts.after
      ? and(base, or(lt(datasets.updatedAt, opts.after.updatedAt), and(eq(datasets.updatedAt, opts.after.updatedAt), lt(datasets.id, opts.after.id))))
      : base;
    const rows = await db.select().from(datasets).where(page).orderBy(desc(datasets.updatedAt), desc(datasets.id)).limit(opts.limit);
    const total = Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(datasets)
          .where(base)
      )[0]?.n ?? 0,
    );
    return { rows, total };
  },

  images: async (db: Db, datasetId: string, opts: { split?: string; offset: number; limit: number }) => {
    const where = and(eq(datasetImages.datasetId, datasetId), opts.split ? eq(datasetImages.split, opts.split) : undefined);
    const rows = await db
      .select()
      .from(datasetImages)
      .where(where)
      .orderBy(asc(datasetImages.split), asc(datasetImages.name))
      .offset(opts.offset)
      .limit(opts.limit);
    const total = Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(datasetImages)
          .where(where)
      )[0]?.n ?? 0,
    );
    return { rows, total };
  },
  image: async (db: Db, datasetId: string, imageId: string) =>
    (
      await db
        .select()
        .from(datasetImages)
        .where(and(eq(datasetImages.datasetId, datasetId), eq(datasetImages.id, imageId)))
        .limit(1)
    )[0] ?? null,
  clearImages: async (db: Db, datasetId: string) => db.delete(datasetImages).where(eq(datasetImages.datasetId, datasetId)),
  insertImages: async (db: Db, rows: Array<typeof datasetImages.$inferInsert>) => (rows.length ? db.insert(datasetImages).values(rows) : undefined),
  /**
   * Records many images' previews in one statement (ADR 0043: made ahead, recorded in batches); the ids
   * of the images still there (a reprocess meanwhile gave the images new ids: those files belong to nobody).
   */
  setThumbKeys: async (db: Db, rows: Array<{ datasetId: string; imageId: string; key: string }>): Promise<string[]> => {
    if (!rows.length) return [];
    const res = await db.execute(sql`
      UPDATE dataset_images SET thumb_key = v.key
      FROM (VALUES ${sql.join(
        rows.map((r) => sql`(${r.datasetId}, ${r.imageId}, ${r.key})`),
        sql`, `,
      )}) AS v(dataset_id, id, key)
      WHERE dataset_images.dataset_id = v.dataset_id AND dataset_images.id = v.id
      RETURNING dataset_images.id`);
    return (res as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
  },
  /**
   * Up to `n` images after `from` in browse order (split, name, id) that have no preview recorded yet:
   * what a person looking at `from` sees next (ADR 0043, previews made ahead). One range of the browse index.
   */
  withoutThumbAfter: async (db: Db, datasetId: string, from: { split: string; name: string; id: string }, n: number) =>
    db
      .select()
      .from(datasetImages)
      .where(
        and(
          eq(datasetImages.datasetId, datasetId),
          sql`(${datasetImages.split}, ${datasetImages.name}, ${datasetImages.id}) > (${from.split}, ${from.name}, ${from.id})`,
          isNull(datasetImages.thumbKey),
        ),
      )
      .orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.id))
      .limit(n),
  /** The first `n` images (browse order) of each dataset, in one query: one index range per dataset (LATERAL). */
  previewsOf: async (db: Db, datasetIds: string[], n: number) => {
    if (!datasetIds.length) return [];
    const res = await db.execute(sql`
      SELECT d.id AS dataset_id, i.id, i.format FROM (VALUES ${sql.join(
        datasetIds.map((id) => sql`(${id})`),
        sql`, `,
      )}) AS d(id)
      CROSS JOIN LATERAL (SELECT id, format, split, name FROM dataset_images WHERE dataset_id = d.id ORDER BY split, name LIMIT ${n}) i
      ORDER BY d.id, i.split, i.name`);
    return (res as unknown as { rows: Array<{ dataset_id: string; id: string; format: string | null }> }).rows.map((r) => ({
      datasetId: r.dataset_id,
      id: r.id,
      format: r.format,
    }));
  },

  /** `ul://<username>/datasets/<slug>`: the dataset of a live user, trashed or not (the caller decides). */
  byOwnerUsername: async (db: Db, username: string, slug: string) =>
    (
      await db
        .select({ d: datasets })
        .from(datasets)
        .innerJoin(users, eq(users.id, datasets.userId))
        .where(and(eq(users.username, username), eq(datasets.slug, slug), isNull(users.deletedAt)))
        .limit(1)
    )[0]?.d ?? null,
  /** Every image of a dataset, in the order training clients list them. */
  allImages: async (db: Db, datasetId: string) =>
    db.select().from(datasetImages).where(eq(datasetImages.datasetId, datasetId)).orderBy(asc(datasetImages.split), asc(datasetImages.name)),
  remove: async (db: Db, id: string) => {
    await db.delete(datasets).where(eq(datasets.id, id));
  },
  /** The user's datasets being processed (shown on /active-jobs). */
  processingOf: (db: Db, userId: string) =>
    db
      .select({ id: datasets.id, name: datasets.name, status: datasets.status })
      .from(datasets)
      .where(and(eq(datasets.userId, userId), inArray(datasets.status, ['Loading', 'Retrying']))),
  /** Of these datasets, the ids still waiting for their archive (live, Initiating or Uploading). */
  awaitingArchive: async (db: Db, ids: string[]) =>
    ids.length
      ? (
          await db
            .select({ id: datasets.id })
            .from(datasets)
            .where(and(inArray(datasets.id, ids), isNull(datasets.deletedAt), inArray(datasets.status, ['Initiating', 'Uploading'])))
        ).map((r) => r.id)
      : [],
};
