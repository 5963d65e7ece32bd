import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { storageReservations } from '../../platform/db/schema.js';

export type ReservationRow = typeof storageReservations.$inferSelect;

export const storageRepository = {
  /**
   * Bytes a user stores: datasets, model files and project images, trashed items included until
   * purged, and the content-addressed image blobs of the user and their teams once each (ADR 0037).
   * Items of a team count against the team's owner, with the team images. Live reservations
   * of uploads in flight count too (all but `excluding`, the caller's own).
   */
  usedBytes: async (db: Db, userId: string, now: Date = new Date(), excluding: string | null = null): Promise<number> => {
    const rows = await db.execute(sql`
      SELECT
        (SELECT coalesce(sum(i.bytes), 0) FROM datasets i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(i.bytes), 0) FROM models i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(i.image_bytes), 0) FROM projects i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(image_bytes), 0) FROM teams WHERE owner_id = ${userId}) +
        (SELECT coalesce(sum(b.bytes), 0) FROM dataset_blobs b WHERE b.owner_key = ${`u:${userId}`}
           OR b.owner_key IN (SELECT 't:' || id FROM teams WHERE owner_id = ${userId} AND deleted_at IS NULL)) +
        (SELECT coalesce(sum(bytes), 0) FROM storage_reservations WHERE user_id = ${userId} AND expires_at > ${now.toISOString()}::timestamptz AND id <> ${excluding ?? ''}) AS used`);
    const row = (rows as unknown as { rows: Array<{ used: string | number }> }).rows[0];
    return Number(row?.used ?? 0);
  },

  /** Serialises reservations of one user inside a transaction (one advisory lock per user). */
  lockUser: async (tx: Db, userId: string) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`storage:${userId}`}))`);
  },

  upsertReservation: async (db: Db, row: typeof storageReservations.$inferInsert) => {
    await db
      .insert(storageReservations)
      .values(row)
      .onConflictDoUpdate({ target: storageReservations.id, set: { bytes: row.bytes, expiresAt: row.expiresAt } });
  },
  reservation: async (db: Db, id: string) => (await db.select().from(storageReservations).where(eq(storageReservations.id, id)).limit(1))[0] ?? null,
  /** Pushes a live reservation's expiry out (an upload still sending); false when it is gone or expired. */
  extendReservation: async (db: Db, id: string, now: Date, expiresAt: Date) =>
    (
      await db
        .update(storageReservations)
        .set({ expiresAt })
        .where(and(eq(storageReservations.id, id), sql`${storageReservations.expiresAt} > ${now.toISOString()}::timestamptz`))
        .returning({ id: storageReservations.id })
    ).length > 0,
  deleteReservation: async (db: Db, id: string) => {
    await db.delete(storageReservations).where(eq(storageReservations.id, id));
  },
  deleteExpired: async (db: Db, userId: string, now: Date) => {
    await db.delete(storageReservations).where(and(eq(storageReservations.userId, userId), lte(storageReservations.expiresAt, now)));
  },
};
