import { and, arrayContains, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { users, webhookAttempts, webhookDeliveries, webhooks, webhookSettings } from '../../platform/db/schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type WebhookWithOwner = WebhookRow & { ownerUsername: string };

const withOwner = { webhook: webhooks, ownerUsername: users.username };
const flatten = (r: { webhook: WebhookRow; ownerUsername: string | null }): WebhookWithOwner => ({ ...r.webhook, ownerUsername: r.ownerUsername ?? '' });

/** The only place the webhooks module talks SQL. */
export const webhooksRepository = {
  insert: async (db: Db, row: typeof webhooks.$inferInsert) => (await db.insert(webhooks).values(row).returning())[0]!,
  byId: async (db: Db, id: string) => (await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1))[0] ?? null,
  byIdWithOwner: async (db: Db, id: string) => {
    const r = (await db.select(withOwner).from(webhooks).leftJoin(users, eq(users.id, webhooks.userId)).where(eq(webhooks.id, id)).limit(1))[0];
    return r ? flatten(r) : null;
  },
  ofUser: async (db: Db, userId: string) =>
    (
      await db.select(withOwner).from(webhooks).leftJoin(users, eq(users.id, webhooks.userId)).where(eq(webhooks.userId, userId)).orderBy(webhooks.createdAt)
    ).map(flatten),
  all: async (db: Db, limit: number) =>
    (await db.select(withOwner).from(webhooks).leftJoin(users, eq(users.id, webhooks.userId)).orderBy(desc(webhooks.createdAt)).limit(limit)).map(flatten),
  update: async (db: Db, id: string, patch: Partial<typeof webhooks.$inferInsert>) =>
    (await db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning())[0] ?? null,
  remove: (db: Db, id: string) => db.delete(webhooks).where(eq(webhooks.id, id)),

  /**
   * Active endpoints that hear `event` of an item owned by `ownerId`: the owner's own, and the
   * instance-wide ones of users who are still admins.
   */
  listeners: (db: Db, event: string, ownerId: string) =>
    db
      .select({ id: webhooks.id })
      .from(webhooks)
      .innerJoin(users, eq(users.id, webhooks.userId))
      .where(
        and(
          eq(webhooks.active, true),
          arrayContains(webhooks.events, [event]),
          or(and(eq(webhooks.userId, ownerId), eq(webhooks.scope, 'own')), and(eq(webhooks.scope, 'instance'), sql`'admin' = ANY(${users.roles})`)),
        ),
      ),

  insertDeliveries: async (db: Db, rows: Array<typeof webhookDeliveries.$inferInsert>) =>
    rows.length ? db.insert(webhookDeliveries).values(rows).returning() : [],
  delivery: async (db: Db, id: string) => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1))[0] ?? null,
  updateDelivery: async (db: Db, id: string, patch: Partial<typeof webhookDeliveries.$inferInsert>) =>
    (await db.update(webhookDeliveries).set(patch).where(eq(webhookDeliveries.id, id)).returning())[0] ?? null,
  /**
   * A keyset page of one webhook's deliveries, newest first (ADR 0042), on `webhook_deliveries_webhook_idx`
   * (webhook_id, created_at DESC): the rows before the cursor's delivery, whose (created_at, id) the
   * database reads itself (times carry microseconds that an ISO cursor would cut).
   */
  deliveriesOf: (db: Db, webhookId: string, limit: number, afterId: string | null = null) =>
    db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), afterId ? before(afterId) : undefined))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit),
  /** Every webhook's deliveries, newest first, keyset-paged as above on `webhook_deliveries_created_idx`. */
  recentDeliveries: (db: Db, limit: number, afterId: string | null = null) =>
    db
      .select()
      .from(webhookDeliveries)
      .where(afterId ? before(afterId) : undefined)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit),
  /** The newest delivery of each webhook (list view). */
  lastDeliveries: async (db: Db, webhookIds: string[]) =>
    webhookIds.length
      ? db
          .selectDistinctOn([webhookDeliveries.webhookId])
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.webhookId, webhookIds))
          .orderBy(webhookDeliveries.webhookId, desc(webhookDeliveries.createdAt))
      : [],

  insertAttempt: (db: Db, row: typeof webhookAttempts.$inferInsert) => db.insert(webhookAttempts).values(row).onConflictDoNothing(),
  attemptsOf: async (db: Db, deliveryIds: string[]) =>
    deliveryIds.length
      ? db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(webhookAttempts.deliveryId, webhookAttempts.attempt)
      : [],

  settings: async (db: Db) => (await db.select().from(webhookSettings).where(eq(webhookSettings.id, 1)).limit(1))[0] ?? null,
  setSettings: (db: Db, allowPrivateUrls: boolean, by: string, now: Date) =>
    db
      .insert(webhookSettings)
      .values({ id: 1, allowPrivateUrls, updatedAt: now, updatedBy: by })
      .onConflictDoUpdate({ target: webhookSettings.id, set: { allowPrivateUrls, updatedAt: now, updatedBy: by } }),
};

/** Deliveries before the named one in (created_at DESC, id DESC) order; none when it is gone. */
const before = (id: string) =>
  sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (SELECT c.created_at, c.id FROM webhook_deliveries c WHERE c.id = ${id})`;
