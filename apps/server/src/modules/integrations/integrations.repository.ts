import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { integrations, roboflowImports, settings, subscriptions } from '../../platform/db/schema.js';

export type IntegrationRow = typeof integrations.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ImportRow = typeof roboflowImports.$inferSelect;

/** The only place the integrations module talks SQL. */
export const integrationsRepository = {
  list: (db: Db, userId: string) => db.select().from(integrations).where(eq(integrations.userId, userId)).orderBy(integrations.createdAt),
  byId: async (db: Db, id: string) => (await db.select().from(integrations).where(eq(integrations.id, id)).limit(1))[0] ?? null,
  byWorkspace: async (db: Db, userId: string, workspace: string) =>
    (
      await db
        .select()
        .from(integrations)
        .where(and(eq(integrations.userId, userId), eq(integrations.type, 'roboflow'), eq(integrations.workspace, workspace)))
        .limit(1)
    )[0] ?? null,
  /** Link, or replace the key of an already linked workspace (one row per user and workspace). */
  upsert: async (db: Db, row: typeof integrations.$inferInsert) =>
    (
      await db
        .insert(integrations)
        .values(row)
        .onConflictDoUpdate({
          target: [integrations.userId, integrations.type, integrations.workspace],
          set: { apiKeyEnc: row.apiKeyEnc, workspaceName: row.workspaceName, updatedAt: row.updatedAt },
        })
        .returning()
    )[0]!,
  update: async (db: Db, id: string, patch: Partial<typeof integrations.$inferInsert>) =>
    (await db.update(integrations).set(patch).where(eq(integrations.id, id)).returning())[0] ?? null,
  remove: (db: Db, id: string) => db.delete(integrations).where(eq(integrations.id, id)),

  subscriptions: (db: Db, userId: string) => db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(subscriptions.createdAt),
  subscription: async (db: Db, id: string) => (await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1))[0] ?? null,
  subscriptionByRef: async (db: Db, userId: string, ref: string) =>
    (
      await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.ref, ref)))
        .limit(1)
    )[0] ?? null,
  upsertSubscription: async (db: Db, row: typeof subscriptions.$inferInsert) =>
    (
      await db
        .insert(subscriptions)
        .values(row)
        .onConflictDoUpdate({
          target: [subscriptions.userId, subscriptions.collection, subscriptions.ref],
          set: { apiKeyEnc: row.apiKeyEnc, updatedAt: row.updatedAt },
        })
        .returning()
    )[0]!,
  removeSubscription: (db: Db, id: string) => db.delete(subscriptions).where(eq(subscriptions.id, id)),

  uploadAllWeights: async (db: Db, userId: string) =>
    (await db.select().from(settings).where(eq(settings.userId, userId)).limit(1))[0]?.roboflowUploadAllWeights ?? false,
  setUploadAllWeights: async (db: Db, userId: string, value: boolean, now: Date) =>
    db
      .insert(settings)
      .values({ userId, roboflowUploadAllWeights: value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.userId, set: { roboflowUploadAllWeights: value, updatedAt: now } }),

  imports: (db: Db, userId: string, filter: { workspace?: string; project?: string } = {}) =>
    db
      .select()
      .from(roboflowImports)
      .where(
        and(
          eq(roboflowImports.userId, userId),
          filter.workspace ? eq(roboflowImports.workspace, filter.workspace) : undefined,
          filter.project ? eq(roboflowImports.project, filter.project) : undefined,
        ),
      )
      .orderBy(desc(roboflowImports.createdAt))
      .limit(200),
  import: async (db: Db, id: string) => (await db.select().from(roboflowImports).where(eq(roboflowImports.id, id)).limit(1))[0] ?? null,
  importOf: async (db: Db, userId: string, workspace: string, project: string, version: number) =>
    (
      await db
        .select()
        .from(roboflowImports)
        .where(
          and(
            eq(roboflowImports.userId, userId),
            eq(roboflowImports.workspace, workspace),
            eq(roboflowImports.project, project),
            eq(roboflowImports.version, version),
          ),
        )
        .limit(1)
    )[0] ?? null,
  /** Insert once per (user, project, version); a second call returns the existing row. */
  insertImport: async (db: Db, row: typeof roboflowImports.$inferInsert) => {
    const inserted = await db.insert(roboflowImports).values(row).onConflictDoNothing().returning();
    return { row: inserted[0] ?? null, created: inserted.length > 0 };
  },
  updateImport: async (db: Db, id: string, patch: Partial<typeof roboflowImports.$inferInsert>) =>
    (await db.update(roboflowImports).set(patch).where(eq(roboflowImports.id, id)).returning())[0] ?? null,
  importsOfDatasets: (db: Db, datasetIds: string[]) =>
    datasetIds.length ? db.select().from(roboflowImports).where(inArray(roboflowImports.datasetId, datasetIds)) : Promise.resolve([]),
};
