import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { inTeamsOf } from '../access/index.js';
import { datasetBlobs, datasetImages, datasets, users } from '../../platform/db/schema.js';

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
  /** What a signed image link is checked against and what serving its images needs (datasets.link-facts.ts): no statistics or report. */
  linkFacts: async (db: Db, id: string) =>
    (
      await db
        .select({
          id: datasets.id,
          userId: datasets.userId,
          teamId: datasets.teamId,
          privacy: datasets.privacy,
          deletedAt: datasets.deletedAt,
          storageKey: datasets.storageKey,
        })
        .from(datasets)
        .where(eq(datasets.id, id))
        .limit(1)
    )[0] ?? null,
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
    // The owner's items and the items of the teams the owner belongs to (ADR 0008).
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

  /**
   * A page of the working state (ADR 0037) in browse order (split, name, image id): keyset-paged after
   * `after` when given (the cursor) on `dataset_images_browse_idx` (migration 0029: the same columns,
   * working rows only), else from `offset` (deprecated, older clients; ADR 0042). No count here: the
   * service answers the total from the dataset's stored statistics.
   */
  images: async (
    db: Db,
    datasetId: string,
    opts: { split?: string; offset?: number; limit: number; after?: { split: string; name: string; imageId: string } | null },
  ) => {
    const where = and(working(datasetId), opts.split ? eq(datasetImages.split, opts.split) : undefined);
    const a = opts.after;
    const page = a ? and(where, sql`(${datasetImages.split}, ${datasetImages.name}, ${datasetImages.imageId}) > (${a.split}, ${a.name}, ${a.imageId})`) : where;
    return db
      .select()
      .from(datasetImages)
      .where(page)
      .orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.imageId))
      .offset(a ? 0 : (opts.offset ?? 0))
      .limit(opts.limit);
  },
  /** Images of the working state (of one split): a count over them, for a dataset whose statistics are not made yet. */
  countImages: async (db: Db, datasetId: string, split?: string) =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(datasetImages)
          .where(and(working(datasetId), split ? eq(datasetImages.split, split) : undefined))
      )[0]?.n ?? 0,
    ),
  /** The working revision of an image (by its stable image id). */
  /**
   * The image's working revision, else its newest one: a saved version's links (ADR 0038) still reach
   * an image deleted from the working state since (its bytes are the same in every revision).
   */
  imageOfAnyRevision: async (db: Db, datasetId: string, imageId: string) =>
    (
      await db
        .select()
        .from(datasetImages)
        .where(and(eq(datasetImages.datasetId, datasetId), eq(datasetImages.imageId, imageId)))
        .orderBy(sql`${datasetImages.revTo} IS NULL DESC`, desc(datasetImages.revFrom))
        .limit(1)
    )[0] ?? null,
  image: async (db: Db, datasetId: string, imageId: string) =>
    (
      await db
        .select()
        .from(datasetImages)
        .where(and(working(datasetId), eq(datasetImages.imageId, imageId)))
        .limit(1)
    )[0] ?? null,
  /**
   * Removes every row of the dataset (processing starts over, or the dataset is purged): the blobs
   * they pointed at lose those references; answers the storage keys of blobs no row points at any more.
   */
  clearImages: async (db: Db, datasetId: string) => {
    const gone = await db.delete(datasetImages).where(eq(datasetImages.datasetId, datasetId)).returning({ blobKey: datasetImages.blobKey });
    return datasetsRepository.dropBlobRefs(db, countKeys(gone.map((g) => g.blobKey)));
  },
  /**
   * Processing starts over (ADR 0038, reprocessing keeps versions): rows a saved version sees
   * (rev_from <= frozen_seq) are ended at edit `seq` instead of deleted, so every older version keeps
   * its images and labels; rows no version sees are deleted and lose their blob references. Answers
   * the storage keys of blobs no row points at any more.
   */
  retireImages: async (tx: Db, datasetId: string, seq: number) => {
    const frozen = sql`(SELECT frozen_seq FROM datasets WHERE id = ${datasetId})`;
    await tx
      .update(datasetImages)
      // Their previews go with the dataset's preview folder: made again on first view.
      .set({ revTo: seq, thumbKey: null })
      .where(and(eq(datasetImages.datasetId, datasetId), isNull(datasetImages.revTo), sql`${datasetImages.revFrom} <= ${frozen}`));
    const gone = await tx
      .delete(datasetImages)
      .where(and(eq(datasetImages.datasetId, datasetId), sql`${datasetImages.revFrom} > ${frozen}`))
      .returning({ blobKey: datasetImages.blobKey });
    return datasetsRepository.dropBlobRefs(tx, countKeys(gone.map((g) => g.blobKey)));
  },
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
          working(datasetId),
          sql`(${datasetImages.split}, ${datasetImages.name}, ${datasetImages.id}) > (${from.split}, ${from.name}, ${from.id})`,
          isNull(datasetImages.thumbKey),
        ),
      )
      .orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.id))
      .limit(n),
  /** The first `n` images (browse order) of each dataset's working state, in one query: one index range per dataset (LATERAL). */
  previewsOf: async (db: Db, datasetIds: string[], n: number) => {
    if (!datasetIds.length) return [];
    const res = await db.execute(sql`
      SELECT d.id AS dataset_id, i.image_id AS id, i.format FROM (VALUES ${sql.join(
        datasetIds.map((id) => sql`(${id})`),
        sql`, `,
      )}) AS d(id)
      CROSS JOIN LATERAL (SELECT image_id, format, split, name FROM dataset_images WHERE dataset_id = d.id AND rev_to IS NULL ORDER BY split, name, image_id LIMIT ${n}) i
      ORDER BY d.id, i.split, i.name, i.image_id`);
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
  /** Every image of a dataset's working state, in the order training clients list them. */
  allImages: async (db: Db, datasetId: string) =>
    db.select().from(datasetImages).where(working(datasetId)).orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.imageId)),
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
  // ---- edits (ADR 0037): one transaction that locks the dataset row and takes seq + 1 ----------------

  /** Locks the dataset row for an edit (SELECT ... FOR UPDATE): edits of one dataset run one at a time. */
  lockForEdit: async (tx: Db, id: string) => (await tx.select().from(datasets).where(eq(datasets.id, id)).for('update').limit(1))[0] ?? null,
  /** Takes the next edit sequence number and applies the dataset's new class list / stats in the same update. */
  nextSeq: async (tx: Db, id: string, patch: Partial<typeof datasets.$inferInsert>) =>
    (
      await tx
        .update(datasets)
        .set({ ...patch, seq: sql`${datasets.seq} + 1` })
        .where(eq(datasets.id, id))
        .returning()
    )[0]!,
  /** Working rows of these images (stable image ids). */
  workingByImageIds: async (db: Db, datasetId: string, imageIds: string[]) =>
    imageIds.length
      ? db
          .select()
          .from(datasetImages)
          .where(and(working(datasetId), inArray(datasetImages.imageId, imageIds)))
      : [],
  /** Names taken in a split of the working state, among these names. */
  namesTaken: async (db: Db, datasetId: string, split: string, names: string[]) =>
    names.length
      ? new Set(
          (
            await db
              .select({ name: datasetImages.name })
              .from(datasetImages)
              .where(and(working(datasetId), eq(datasetImages.split, split), inArray(datasetImages.name, names)))
          ).map((r) => r.name),
        )
      : new Set<string>(),
  /**
   * Changes working rows at edit `seq`. A row no version can see (rev_from > frozenSeq) changes in
   * place; an older one is ended (rev_to = seq) and a new revision of the image (same image id, new
   * row id) takes its place, pointing at the same blob (one more reference).
   */
  reviseImages: async (
    tx: Db,
    d: { id: string; frozenSeq: number },
    seq: number,
    changes: Array<{ row: DatasetImageRow; patch: Partial<typeof datasetImages.$inferInsert> }>,
    newId: () => string,
  ) => {
    const inPlace = changes.filter((c) => c.row.revFrom > d.frozenSeq);
    const replaced = changes.filter((c) => c.row.revFrom <= d.frozenSeq);
    for (const c of inPlace)
      await tx
        .update(datasetImages)
        .set({ ...c.patch, revFrom: seq })
        .where(eq(datasetImages.id, c.row.id));
    if (replaced.length) {
      await endRows(
        tx,
        replaced.map((c) => c.row.id),
        seq,
      );
      await insertChunked(
        tx,
        replaced.map((c) => ({ ...c.row, ...c.patch, id: newId(), revFrom: seq, revTo: null })),
      );
      await datasetsRepository.addBlobRefs(tx, countKeys(replaced.map((c) => c.row.blobKey)));
    }
  },
  /** Ends working rows at edit `seq` (deleted in place when no version sees them); answers blob keys left without references. */
  endImages: async (tx: Db, d: { id: string; frozenSeq: number }, seq: number, rows: DatasetImageRow[]) => {
    const unseen = rows.filter((r) => r.revFrom > d.frozenSeq);
    await endRows(
      tx,
      rows.filter((r) => r.revFrom <= d.frozenSeq).map((r) => r.id),
      seq,
    );
    if (!unseen.length) return [];
    await tx.delete(datasetImages).where(
      inArray(
        datasetImages.id,
        unseen.map((r) => r.id),
      ),
    );
    return datasetsRepository.dropBlobRefs(tx, countKeys(unseen.map((r) => r.blobKey)));
  },
  /** Inserts new image rows (the caller already holds their blobs: see addBlobRefs). */
  insertImageRows: async (tx: Db, rows: Array<typeof datasetImages.$inferInsert>) => {
    await insertChunked(tx, rows);
    await datasetsRepository.addBlobRefs(tx, countKeys(rows.map((r) => r.blobKey ?? null)));
  },

  /** Every revision still read from the dataset's archive (`blob_key` NULL), working or not (ADR 0044). */
  archiveBacked: async (db: Db, datasetId: string) =>
    db
      .select()
      .from(datasetImages)
      .where(and(eq(datasetImages.datasetId, datasetId), isNull(datasetImages.blobKey))),
  /**
   * Points revisions that are still read from the archive at content-addressed blobs (ADR 0044), each
   * row one more reference of its blob; a row that meanwhile got a blob is left as it is. The caller
   * holds the dataset's edit lock and has recorded the blobs (ensureBlob).
   */
  pointAtBlobs: async (tx: Db, datasetId: string, rows: Array<{ id: string; sha256: string; bytes: number; key: string }>) => {
    const keys: string[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const res = await tx.execute(sql`
        UPDATE dataset_images SET blob_key = v.key, sha256 = v.sha, bytes = v.bytes::bigint
        FROM (VALUES ${sql.join(
          rows.slice(i, i + 500).map((r) => sql`(${r.id}, ${r.sha256}, ${r.bytes}, ${r.key})`),
          sql`, `,
        )}) AS v(id, sha, bytes, key)
        WHERE dataset_images.id = v.id AND dataset_images.dataset_id = ${datasetId} AND dataset_images.blob_key IS NULL
        RETURNING dataset_images.blob_key`);
      keys.push(...(res as unknown as { rows: Array<{ blob_key: string }> }).rows.map((r) => r.blob_key));
    }
    await datasetsRepository.addBlobRefs(tx, countKeys(keys));
    return keys.length;
  },

  // ---- content-addressed blobs (ADR 0037) ------------------------------------------------------------

  blobsByHash: async (db: Db, ownerKey: string, hashes: string[]) =>
    hashes.length
      ? db
          .select()
          .from(datasetBlobs)
          .where(and(eq(datasetBlobs.ownerKey, ownerKey), inArray(datasetBlobs.sha256, hashes)))
      : [],
  /** Records a blob (no reference yet) unless the owner has it already; true when this call recorded it. */
  ensureBlob: async (tx: Db, row: { ownerKey: string; sha256: string; storageKey: string; bytes: number }) =>
    (await tx.insert(datasetBlobs).values(row).onConflictDoNothing().returning({ k: datasetBlobs.storageKey })).length > 0,
  /** Records many blobs in one statement (an add of N images is one round trip, not N). */
  ensureBlobs: async (tx: Db, rows: Array<{ ownerKey: string; sha256: string; storageKey: string; bytes: number }>) => {
    for (let i = 0; i < rows.length; i += 500)
      await tx
        .insert(datasetBlobs)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing();
  },
  /**
   * Inserts image rows and records their blobs with one more reference per row, in one statement when
   * there are at most 500 of each (an add of N images is one round trip): the blobs are inserted with
   * their count, or a held blob's count is raised (`ON CONFLICT … DO UPDATE`). More go in chunks.
   */
  insertImagesWithBlobs: async (
    tx: Db,
    blobs: Array<{ ownerKey: string; sha256: string; storageKey: string; bytes: number }>,
    rows: Array<typeof datasetImages.$inferInsert>,
  ) => {
    const counts = countKeys(rows.map((r) => r.blobKey ?? null));
    const used = blobs.filter((b) => counts.has(b.storageKey));
    if (!used.length || used.length !== counts.size || used.length > 500 || rows.length > 500) {
      await datasetsRepository.ensureBlobs(tx, used);
      await datasetsRepository.insertImageRows(tx, rows);
      return;
    }
    const recorded = sql`INSERT INTO dataset_blobs (owner_key, sha256, storage_key, bytes, refs) VALUES ${sql.join(
      used.map((b) => sql`(${b.ownerKey}, ${b.sha256}, ${b.storageKey}, ${b.bytes}::bigint, ${counts.get(b.storageKey)!}::int)`),
      sql`, `,
    )} ON CONFLICT (owner_key, sha256) DO UPDATE SET refs = dataset_blobs.refs + excluded.refs`;
    await tx.execute(sql`WITH recorded AS (${recorded}) ${tx.insert(datasetImages).values(rows).getSQL()}`);
  },
  /** One UPDATE per 500 keys (not one per key): an edit's reference counts change in a round trip or few. */
  addBlobRefs: async (tx: Db, counts: Map<string, number>) => {
    const all = [...counts];
    for (let i = 0; i < all.length; i += 500) {
      await tx.execute(sql`
        UPDATE dataset_blobs SET refs = dataset_blobs.refs + v.n
        FROM (VALUES ${sql.join(
          all.slice(i, i + 500).map(([key, n]) => sql`(${key}, ${n}::int)`),
          sql`, `,
        )}) AS v(key, n)
        WHERE dataset_blobs.storage_key = v.key`);
    }
  },
  /** Takes references away; blobs left with none are deleted, their storage keys answered (the caller deletes the bytes after commit). */
  dropBlobRefs: async (tx: Db, counts: Map<string, number>) => {
    if (!counts.size) return [] as string[];
    for (const [key, n] of counts)
      await tx
        .update(datasetBlobs)
        .set({ refs: sql`${datasetBlobs.refs} - ${n}` })
        .where(eq(datasetBlobs.storageKey, key));
    return (
      await tx
        .delete(datasetBlobs)
        .where(and(inArray(datasetBlobs.storageKey, [...counts.keys()]), lte(datasetBlobs.refs, 0)))
        .returning({ key: datasetBlobs.storageKey })
    ).map((r) => r.key);
  },
  /** Of these storage keys, those a blob row names again (a new upload of the same bytes since): their bytes stay. */
  blobKeysInUse: async (db: Db, keys: string[]) =>
    new Set(
      keys.length ? (await db.select({ key: datasetBlobs.storageKey }).from(datasetBlobs).where(inArray(datasetBlobs.storageKey, keys))).map((r) => r.key) : [],
    ),
  blob: async (db: Db, storageKey: string) => (await db.select().from(datasetBlobs).where(eq(datasetBlobs.storageKey, storageKey)).limit(1))[0] ?? null,
};

/** Ends these revisions at edit `seq` (ADR 0037): the versions saved before it keep seeing them, the working state no longer does. */
async function endRows(tx: Db, ids: string[], seq: number) {
  if (ids.length) await tx.update(datasetImages).set({ revTo: seq }).where(inArray(datasetImages.id, ids));
}

/** The working state of a dataset (ADR 0037): its rows that no edit has ended. */
function working(datasetId: string) {
  return and(eq(datasetImages.datasetId, datasetId), isNull(datasetImages.revTo))!;
}

function countKeys(keys: Array<string | null>) {
  const counts = new Map<string, number>();
  for (const k of keys) if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

async function insertChunked(tx: Db, rows: Array<typeof datasetImages.$inferInsert>) {
  for (let i = 0; i < rows.length; i += 500) await tx.insert(datasetImages).values(rows.slice(i, i + 500));
}
