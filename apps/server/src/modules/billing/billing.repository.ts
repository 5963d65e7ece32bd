import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { billingRecords, billingSubscriptions, models, planLimits, stripeEvents, users, walletEntries } from '../../platform/db/schema.js';

export type WalletEntryRow = typeof walletEntries.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type BillingRecordRow = typeof billingRecords.$inferSelect;
export type PlanLimitsRow = typeof planLimits.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** The only place billing builds queries. Every function takes the db or an open transaction. */
export const billingRepository = {
  user: async (db: Db, id: string): Promise<UserRow | null> => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0] ?? null,
  userByCustomer: async (db: Db, customerId: string): Promise<UserRow | null> =>
    (await db.select().from(users).where(eq(users.paymentCustomerId, customerId)).limit(1))[0] ?? null,
  /** Row lock on the user: every wallet or plan change of one user goes through it, one at a time. */
  lockUser: async (tx: Db, id: string): Promise<UserRow | null> => (await tx.select().from(users).where(eq(users.id, id)).for('update'))[0] ?? null,
  setWallet: async (tx: Db, id: string, balance: number, held: number) =>
    tx.update(users).set({ walletBalance: balance, walletHeld: held }).where(eq(users.id, id)),
  setPlan: async (tx: Db, id: string, plan: string, now: Date) =>
    (await tx.update(users).set({ plan, updatedAt: now }).where(eq(users.id, id)).returning())[0]!,
  setCustomer: async (db: Db, id: string, customerId: string) =>
    (await db.update(users).set({ paymentCustomerId: customerId }).where(eq(users.id, id)).returning())[0]!,
  usernames: async (db: Db, ids: string[]) => {
    if (!ids.length) return new Map<string, string>();
    const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.username]));
  },
  modelOwner: async (db: Db, modelId: string) =>
    (await db.select({ id: models.id, userId: models.userId }).from(models).where(eq(models.id, modelId)).limit(1))[0] ?? null,

  // ledger
  entryByKey: async (tx: Db, userId: string, key: string) =>
    (
      await tx
        .select()
        .from(walletEntries)
        .where(and(eq(walletEntries.userId, userId), eq(walletEntries.idempotencyKey, key)))
        .limit(1)
    )[0] ?? null,
  entry: async (db: Db, id: string) => (await db.select().from(walletEntries).where(eq(walletEntries.id, id)).limit(1))[0] ?? null,
  insertEntry: async (tx: Db, row: typeof walletEntries.$inferInsert) => (await tx.insert(walletEntries).values(row).returning())[0]!,
  /** What a hold has become: charged so far, and whether the rest was released. */
  holdState: async (tx: Db, holdId: string) => {
    const rows = await tx
      .select({
        charged: sql<string>`coalesce(sum(${walletEntries.charged}), 0)`,
        releases: sql<string>`count(*) FILTER (WHERE ${walletEntries.kind} = 'release')`,
      })
      .from(walletEntries)
      .where(eq(walletEntries.holdId, holdId));
    return { charged: Number(rows[0]?.charged ?? 0), released: Number(rows[0]?.releases ?? 0) > 0 };
  },
  entries: async (db: Db, userId: string, opts: { limit: number; before?: WalletEntryRow | null; modelId?: string }) =>
    db
      .select()
      .from(walletEntries)
      .where(
        and(
          eq(walletEntries.userId, userId),
          opts.modelId ? eq(walletEntries.modelId, opts.modelId) : undefined,
          opts.before ? lt(walletEntries.seq, opts.before.seq) : undefined,
        ),
      )
      .orderBy(desc(walletEntries.seq))
      .limit(opts.limit),
  sums: async (db: Db, userId: string) => {
    const rows = await db
      .select({ amount: sql<string>`coalesce(sum(${walletEntries.amount}), 0)`, held: sql<string>`coalesce(sum(${walletEntries.held}), 0)` })
      .from(walletEntries)
      .where(eq(walletEntries.userId, userId));
    return { balance: Number(rows[0]?.amount ?? 0), held: Number(rows[0]?.held ?? 0) };
  },

  // subscriptions
  subscriptions: async (db: Db, userId: string) =>
    db.select().from(billingSubscriptions).where(eq(billingSubscriptions.userId, userId)).orderBy(desc(billingSubscriptions.updatedAt)),
  subscription: async (db: Db, id: string) => (await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, id)).limit(1))[0] ?? null,
  upsertSubscription: async (tx: Db, row: typeof billingSubscriptions.$inferInsert) => {
    const { id: _id, createdAt: _c, ...set } = row;
    return (await tx.insert(billingSubscriptions).values(row).onConflictDoUpdate({ target: billingSubscriptions.id, set }).returning())[0]!;
  },

  // webhook events
  /** false when the event id was seen before (a replay): the caller then changes nothing. */
  claimEvent: async (tx: Db, row: typeof stripeEvents.$inferInsert) =>
    (await tx.insert(stripeEvents).values(row).onConflictDoNothing({ target: stripeEvents.id }).returning({ id: stripeEvents.id })).length === 1,
  finishEvent: async (tx: Db, id: string, outcome: string, userId: string | null, detail: string | null) =>
    tx.update(stripeEvents).set({ outcome, userId, detail }).where(eq(stripeEvents.id, id)),
  event: async (db: Db, id: string) => (await db.select().from(stripeEvents).where(eq(stripeEvents.id, id)).limit(1))[0] ?? null,

  // billing records
  insertRecord: async (tx: Db, row: typeof billingRecords.$inferInsert) => (await tx.insert(billingRecords).values(row).returning())[0]!,
  recordByHold: async (tx: Db, holdId: string) => (await tx.select().from(billingRecords).where(eq(billingRecords.holdId, holdId)).limit(1))[0] ?? null,
  updateRecord: async (tx: Db, id: string, patch: Partial<typeof billingRecords.$inferInsert>) =>
    tx.update(billingRecords).set(patch).where(eq(billingRecords.id, id)),
  upsertSubscriptionRecord: async (tx: Db, row: typeof billingRecords.$inferInsert & { subscriptionId: string }) =>
    tx
      .insert(billingRecords)
      .values(row)
      .onConflictDoUpdate({
        target: billingRecords.subscriptionId,
        targetWhere: sql`subscription_id IS NOT NULL`,
        set: { status: row.status, plan: row.plan, endedAt: row.endedAt ?? null },
      }),
  records: async (db: Db, userId: string, modelId?: string) =>
    db
      .select()
      .from(billingRecords)
      .where(and(eq(billingRecords.userId, userId), modelId ? eq(billingRecords.modelId, modelId) : undefined))
      .orderBy(desc(billingRecords.startedAt), desc(billingRecords.id))
      .limit(200),

  // plan limits
  planOverrides: async (db: Db) => db.select().from(planLimits),
  upsertPlanOverride: async (db: Db, row: typeof planLimits.$inferInsert) => {
    const { plan: _p, ...set } = row;
    return (await db.insert(planLimits).values(row).onConflictDoUpdate({ target: planLimits.plan, set }).returning())[0]!;
  },
};
