import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasetImages, evaluationMistakes, evaluations, modelFiles, models } from '../../platform/db/schema.js';

export type EvaluationRow = typeof evaluations.$inferSelect;
export type EvaluationInsert = typeof evaluations.$inferInsert;
export type MistakeRow = typeof evaluationMistakes.$inferSelect;
/** `id` is the image's stable id (ADR 0037), the one image links and the image browser use. */
export type EvalImageRow = Pick<typeof datasetImages.$inferSelect, 'id' | 'name' | 'width' | 'height' | 'labels' | 'className' | 'source' | 'blobKey'>;

export const evaluationRepository = {
  byId: async (db: Db, id: string) => (await db.select().from(evaluations).where(eq(evaluations.id, id)))[0] ?? null,
  insert: async (db: Db, row: EvaluationInsert) => (await db.insert(evaluations).values(row).returning())[0]!,
  update: async (db: Db, id: string, patch: Partial<EvaluationInsert>) =>
    (await db.update(evaluations).set(patch).where(eq(evaluations.id, id)).returning())[0] ?? null,
  /** Only while it is still queued or running: a cancel or a finish never overwrites a final state. */
  updateActive: async (db: Db, id: string, patch: Partial<EvaluationInsert>) =>
    (
      await db
        .update(evaluations)
        .set(patch)
        .where(and(eq(evaluations.id, id), inArray(evaluations.status, ['queued', 'running'])))
        .returning()
    )[0] ?? null,
  /** The evaluation of these very files that completed, or is still on its way, newest first. */
  reusable: async (db: Db, k: { modelId: string; datasetId: string; split: string; modelHash: string; datasetHash: string }) =>
    (
      await db
        .select()
        .from(evaluations)
        .where(
          and(
            eq(evaluations.modelId, k.modelId),
            eq(evaluations.datasetId, k.datasetId),
            eq(evaluations.split, k.split as 'val'),
            eq(evaluations.modelHash, k.modelHash),
            eq(evaluations.datasetHash, k.datasetHash),
            inArray(evaluations.status, ['queued', 'running', 'completed']),
          ),
        )
        .orderBy(desc(evaluations.createdAt))
        .limit(1)
    )[0] ?? null,
  ofModel: (db: Db, modelId: string, limit = 50) =>
    db.select().from(evaluations).where(eq(evaluations.modelId, modelId)).orderBy(desc(evaluations.createdAt)).limit(limit),
  /** Completed evaluations of these models, newest first (the project page's compare). */
  completedOfModels: (db: Db, modelIds: string[]) =>
    modelIds.length
      ? db
          .select()
          .from(evaluations)
          .where(and(inArray(evaluations.modelId, modelIds), eq(evaluations.status, 'completed')))
          .orderBy(desc(evaluations.createdAt))
      : Promise.resolve([] as EvaluationRow[]),
  modelNames: (db: Db, ids: string[]) =>
    ids.length
      ? db
          .select({ id: models.id, name: models.name })
          .from(models)
          .where(and(inArray(models.id, ids), isNull(models.deletedAt)))
      : Promise.resolve([]),

  onnxFile: async (db: Db, modelId: string) =>
    (
      await db
        .select()
        .from(modelFiles)
        .where(and(eq(modelFiles.modelId, modelId), eq(modelFiles.kind, 'onnx')))
    )[0] ?? null,

  /**
   * The split's content in one value: every image revision of the working state (ADR 0037) with its
   * labels and class. Processing again or an edit makes new revisions, so any change to the images or
   * labels changes it.
   */
  splitHash: async (db: Db, datasetId: string, split: string) => {
    const res = await db.execute(sql`
      SELECT count(*)::int AS n,
             coalesce(md5(string_agg(id || ':' || labels::text || ':' || coalesce(class_name, ''), ',' ORDER BY id)), '') AS h
      FROM dataset_images WHERE dataset_id = ${datasetId} AND split = ${split} AND rev_to IS NULL`);
    const row = (res as unknown as { rows: Array<{ n: number; h: string }> }).rows[0]!;
    return { images: Number(row.n), hash: row.h };
  },
  splitImages: (db: Db, datasetId: string, split: string): Promise<EvalImageRow[]> =>
    db
      .select({
        id: datasetImages.imageId,
        name: datasetImages.name,
        width: datasetImages.width,
        height: datasetImages.height,
        labels: datasetImages.labels,
        className: datasetImages.className,
        source: datasetImages.source,
        blobKey: datasetImages.blobKey,
      })
      .from(datasetImages)
      .where(and(eq(datasetImages.datasetId, datasetId), eq(datasetImages.split, split), isNull(datasetImages.revTo)))
      .orderBy(asc(datasetImages.name), asc(datasetImages.imageId)),
  imagesByIds: (db: Db, datasetId: string, ids: string[]) =>
    ids.length
      ? db
          .select()
          .from(datasetImages)
          .where(and(eq(datasetImages.datasetId, datasetId), inArray(datasetImages.imageId, ids), isNull(datasetImages.revTo)))
      : Promise.resolve([]),

  insertMistakes: async (db: Db, rows: MistakeRow[]) => {
    for (let i = 0; i < rows.length; i += 500) await db.insert(evaluationMistakes).values(rows.slice(i, i + 500));
  },
  deleteMistakes: async (db: Db, evaluationId: string) => {
    await db.delete(evaluationMistakes).where(eq(evaluationMistakes.evaluationId, evaluationId));
  },
  mistakes: (db: Db, evaluationId: string, kind: MistakeRow['kind'], classId: number | undefined, limit: number) =>
    db
      .select()
      .from(evaluationMistakes)
      .where(
        and(
          eq(evaluationMistakes.evaluationId, evaluationId),
          eq(evaluationMistakes.kind, kind),
          classId === undefined ? undefined : eq(evaluationMistakes.classId, classId),
        ),
      )
      .orderBy(desc(evaluationMistakes.confidence), asc(evaluationMistakes.classId), asc(evaluationMistakes.rank))
      .limit(limit),
};
