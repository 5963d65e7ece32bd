import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

export const storageRepository = {
  /**
   * Bytes a user stores: datasets, model files and project images, trashed items included until
   * purged. Items of a team count against the team's owner, with the team images.
   */
  usedBytes: async (db: Db, userId: string): Promise<number> => {
    const rows = await db.execute(sql`
      SELECT
        (SELECT coalesce(sum(i.bytes), 0) FROM datasets i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(i.bytes), 0) FROM models i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(i.image_bytes), 0) FROM projects i LEFT JOIN teams t ON t.id = i.team_id AND t.deleted_at IS NULL WHERE coalesce(t.owner_id, i.user_id) = ${userId}) +
        (SELECT coalesce(sum(image_bytes), 0) FROM teams WHERE owner_id = ${userId}) AS used`);
    const row = (rows as unknown as { rows: Array<{ used: string | number }> }).rows[0];
    return Number(row?.used ?? 0);
  },
};
