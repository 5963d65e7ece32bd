import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { preparedPer } from '../../platform/db/prepared.js';
import { apiKeys, models, users } from '../../platform/db/schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

const activeWithUserQuery = preparedPer((db) =>
  db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.secretHash, sql.placeholder('secretHash')), isNull(apiKeys.revokedAt)))
    .limit(1)
    .prepare('sl_api_key_with_user'),
);

export const apiKeysRepository = {
  insert: async (db: Db, row: typeof apiKeys.$inferInsert) => (await db.insert(apiKeys).values(row).returning())[0]!,
  activeOf: (db: Db, userId: string) =>
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt)),
  /** Revokes the user's live key; false when there is none with that id. */
  revoke: async (db: Db, userId: string, id: string, now: Date) =>
    (
      await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id })
    ).length > 0,
  /** What a run key on this model reaches besides the model (ADR 0023): its dataset, project and starting model. */
  runItems: async (db: Db, modelId: string) =>
    (
      await db
        .select({ datasetId: models.datasetId, projectId: models.projectId, parentId: models.parentId })
        .from(models)
        .where(eq(models.id, modelId))
        .limit(1)
    )[0] ?? null,
  /** A live key by its secret's hash, with its owner. */
  activeWithUser: async (db: Db, secretHash: string) => (await activeWithUserQuery(db).execute({ secretHash }))[0] ?? null,
  touch: async (db: Db, id: string, now: Date) => {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
  },
};
