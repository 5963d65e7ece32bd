import { sql } from 'drizzle-orm';
import { PLAN_LIMITS, type Plan } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';

/**
 * Bytes a user stores: datasets, model files and project images, trashed items included until
 * purged (product notes: trashed items still count toward storage).
 */
export async function storageUsed(ctx: Pick<AppContext, 'db'>, userId: string): Promise<number> {
  const rows = await ctx.db.execute(sql`
    SELECT
      (SELECT coalesce(sum(bytes), 0) FROM datasets WHERE user_id = ${userId}) +
      (SELECT coalesce(sum(bytes), 0) FROM models WHERE user_id = ${userId}) +
      (SELECT coalesce(sum(image_bytes), 0) FROM projects WHERE user_id = ${userId}) AS used`);
  const row = (rows as unknown as { rows: Array<{ used: string | number }> }).rows[0];
  return Number(row?.used ?? 0);
}

export async function storageRemaining(ctx: Pick<AppContext, 'db'>, user: { id: string; plan: string }) {
  const limit = PLAN_LIMITS[(user.plan as Plan) in PLAN_LIMITS ? (user.plan as Plan) : 'free'].storageBytes;
  const used = await storageUsed(ctx, user.id);
  return { limit, used, remaining: Math.max(0, limit - used) };
}

/** Throws InsufficientStorageError (available vs required) when `bytes` does not fit. */
export async function assertStorage(ctx: Pick<AppContext, 'db'>, user: { id: string; plan: string }, bytes: number) {
  const { remaining } = await storageRemaining(ctx, user);
  if (bytes > remaining) throw errors.insufficientStorage(remaining, bytes);
  return remaining;
}
