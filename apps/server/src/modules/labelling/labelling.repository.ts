import { and, asc, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasetImages, labelSuggestions, prelabelJobs } from '../../platform/db/schema.js';

export type PrelabelJobRow = typeof prelabelJobs.$inferSelect;
export type SuggestionRow = typeof labelSuggestions.$inferSelect;
export type LabelImageRow = Pick<typeof datasetImages.$inferSelect, 'id' | 'split' | 'name' | 'width' | 'height' | 'source' | 'blobKey'>;
export type ReviewImageRow = typeof datasetImages.$inferSelect & { suggestions: number };

const pending = eq(labelSuggestions.status, 'pending');
/** The dataset's working state (ADR 0037): rows no edit has ended. Images are named by their stable image id. */
const working = (datasetId: string) => and(eq(datasetImages.datasetId, datasetId), isNull(datasetImages.revTo));
/** A pending suggestion exists for the image (the "with suggestions" filter, accept all). */
const hasPending = (datasetId: string) =>
  sql`EXISTS (SELECT 1 FROM ${labelSuggestions} s WHERE s.dataset_id = ${datasetId} AND s.image_id = dataset_images.image_id AND s.status = 'pending')`;

/** Counts of an array column read back as numbers on both drivers. */
const num = (v: unknown) => Number(v ?? 0);

export const labellingRepository = {
  insertJob: async (db: Db, row: typeof prelabelJobs.$inferInsert) => (await db.insert(prelabelJobs).values(row).returning())[0]!,
  jobById: async (db: Db, id: string) => (await db.select().from(prelabelJobs).where(eq(prelabelJobs.id, id)))[0] ?? null,
  /** Only while it is still queued or running: a cancel or a finish never overwrites a final state. */
  updateActiveJob: async (db: Db, id: string, patch: Partial<typeof prelabelJobs.$inferInsert>) =>
    (
      await db
        .update(prelabelJobs)
        .set(patch)
        .where(and(eq(prelabelJobs.id, id), inArray(prelabelJobs.status, ['queued', 'running'])))
        .returning()
    )[0] ?? null,
  jobsOfDataset: (db: Db, datasetId: string, limit = 20) =>
    db.select().from(prelabelJobs).where(eq(prelabelJobs.datasetId, datasetId)).orderBy(desc(prelabelJobs.createdAt)).limit(limit),

  /** The images a job runs on, in browse order: a split, named images, or all. */
  imagesToLabel: (db: Db, datasetId: string, q: { split?: string | null; imageIds?: string[] | null }): Promise<LabelImageRow[]> =>
    db
      .select({
        id: datasetImages.imageId,
        split: datasetImages.split,
        name: datasetImages.name,
        width: datasetImages.width,
        height: datasetImages.height,
        source: datasetImages.source,
        blobKey: datasetImages.blobKey,
      })
      .from(datasetImages)
      .where(
        and(working(datasetId), q.split ? eq(datasetImages.split, q.split) : undefined, q.imageIds ? inArray(datasetImages.imageId, q.imageIds) : undefined),
      )
      .orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.imageId)),
  countImages: async (db: Db, datasetId: string, q: { split?: string | null; imageIds?: string[] | null }) =>
    num(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(datasetImages)
          .where(
            and(
              working(datasetId),
              q.split ? eq(datasetImages.split, q.split) : undefined,
              q.imageIds ? inArray(datasetImages.imageId, q.imageIds) : undefined,
            ),
          )
      )[0]?.n,
    ),

  /** A job's proposals for some images: earlier pending proposals of those images are replaced (the newest run wins). */
  replaceSuggestions: async (db: Db, rows: Array<typeof labelSuggestions.$inferInsert>) => {
    if (!rows.length) return;
    await db.delete(labelSuggestions).where(
      and(
        eq(labelSuggestions.datasetId, rows[0]!.datasetId),
        inArray(
          labelSuggestions.imageId,
          rows.map((r) => r.imageId),
        ),
        pending,
      ),
    );
    await db.insert(labelSuggestions).values(rows);
  },
  pendingOfImage: (db: Db, datasetId: string, imageId: string) =>
    db
      .select()
      .from(labelSuggestions)
      .where(and(eq(labelSuggestions.datasetId, datasetId), eq(labelSuggestions.imageId, imageId), pending))
      .orderBy(desc(labelSuggestions.createdAt)),
  /** Pending suggestions of named images, or of every image (of a split), with the split the image is in. */
  pendingFor: (db: Db, datasetId: string, q: { imageIds?: string[]; split?: string }) =>
    db
      .select({ s: labelSuggestions })
      .from(labelSuggestions)
      .innerJoin(
        datasetImages,
        and(eq(datasetImages.datasetId, labelSuggestions.datasetId), eq(datasetImages.imageId, labelSuggestions.imageId), isNull(datasetImages.revTo)),
      )
      .where(
        and(
          eq(labelSuggestions.datasetId, datasetId),
          pending,
          q.imageIds ? inArray(labelSuggestions.imageId, q.imageIds) : undefined,
          q.split ? eq(datasetImages.split, q.split) : undefined,
        ),
      )
      .orderBy(asc(labelSuggestions.imageId), asc(labelSuggestions.createdAt))
      .then((rows) => rows.map((r) => r.s)),
  decide: async (db: Db, ids: string[], status: 'accepted' | 'rejected', by: string, at: Date) => {
    for (let i = 0; i < ids.length; i += 1000)
      await db
        .update(labelSuggestions)
        .set({ status, decidedBy: by, decidedAt: at })
        .where(and(inArray(labelSuggestions.id, ids.slice(i, i + 1000)), pending));
  },
  /** Part of a suggestion decided: the rows left stay pending. */
  keepRows: async (db: Db, id: string, labels: number[][], conf: number[]) => {
    await db.update(labelSuggestions).set({ labels, conf }).where(eq(labelSuggestions.id, id));
  },

  /** Label rows per dataset class id (detect/segment/pose) and images per class name (classify), with the unlabelled count. */
  classCounts: async (db: Db, datasetId: string) => {
    const rows = await db.execute(sql`
      SELECT (l.row ->> 0)::int AS cls, count(*) AS n
      FROM dataset_images i CROSS JOIN LATERAL jsonb_array_elements(i.labels) AS l(row)
      WHERE i.dataset_id = ${datasetId} AND i.rev_to IS NULL GROUP BY 1`);
    const names = await db.execute(sql`
      SELECT class_name AS name, count(*) AS n FROM dataset_images WHERE dataset_id = ${datasetId} AND rev_to IS NULL AND class_name IS NOT NULL GROUP BY 1`);
    const totals = await db.execute(sql`
      SELECT count(*) AS images, count(*) FILTER (WHERE labels = '[]'::jsonb AND class_name IS NULL) AS unlabelled
      FROM dataset_images WHERE dataset_id = ${datasetId} AND rev_to IS NULL`);
    const t = (totals as unknown as { rows: Array<{ images: unknown; unlabelled: unknown }> }).rows[0];
    return {
      byClass: (rows as unknown as { rows: Array<{ cls: unknown; n: unknown }> }).rows.map((r) => ({ cls: num(r.cls), n: num(r.n) })),
      byName: (names as unknown as { rows: Array<{ name: string; n: unknown }> }).rows.map((r) => ({ name: r.name, n: num(r.n) })),
      images: num(t?.images),
      unlabelled: num(t?.unlabelled),
    };
  },

  /**
   * One page of the image list under a review filter, in browse order (split, name, id), keyset-paged
   * from `after`; each row with its count of pending suggestions.
   */
  review: async (
    db: Db,
    datasetId: string,
    q: {
      filter: 'unlabelled' | 'suggested' | 'changed-since' | 'disagree';
      split?: string;
      imageIds?: string[];
      /** changed-since: the seq of the version; rows made by a later edit are newer than it. */
      sinceSeq?: number;
      limit: number;
      after?: { split: string; name: string; id: string };
    },
  ): Promise<ReviewImageRow[]> => {
    const where: Array<SQL | undefined> = [working(datasetId), q.split ? eq(datasetImages.split, q.split) : undefined];
    if (q.filter === 'unlabelled') where.push(sql`${datasetImages.labels} = '[]'::jsonb AND ${datasetImages.className} IS NULL`);
    if (q.filter === 'suggested') where.push(hasPending(datasetId));
    if (q.filter === 'changed-since') where.push(gt(datasetImages.revFrom, q.sinceSeq ?? Number.MAX_SAFE_INTEGER));
    if (q.filter === 'disagree') where.push(q.imageIds?.length ? inArray(datasetImages.imageId, q.imageIds) : sql`false`);
    if (q.after) {
      const a = q.after;
      where.push(
        or(
          gt(datasetImages.split, a.split),
          and(eq(datasetImages.split, a.split), gt(datasetImages.name, a.name)),
          and(eq(datasetImages.split, a.split), eq(datasetImages.name, a.name), gt(datasetImages.imageId, a.id)),
        ),
      );
    }
    const rows = await db
      .select({
        image: datasetImages,
        suggestions: sql<number>`(SELECT count(*) FROM ${labelSuggestions} s WHERE s.dataset_id = ${datasetId} AND s.image_id = dataset_images.image_id AND s.status = 'pending')`,
      })
      .from(datasetImages)
      .where(and(...where))
      .orderBy(asc(datasetImages.split), asc(datasetImages.name), asc(datasetImages.imageId))
      .limit(q.limit);
    return rows.map((r) => ({ ...r.image, suggestions: num(r.suggestions) }));
  },
};
