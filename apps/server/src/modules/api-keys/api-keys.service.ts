import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { ApiKey } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { apiKeys } from '../../platform/db/schema.js';
import { errors } from '../../platform/http/errors.js';
import { newId, sha256 } from '../../platform/ids.js';

type Row = typeof apiKeys.$inferSelect;

export function presentApiKey(row: Row): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    dates: { created: row.createdAt.toISOString(), lastUsed: row.lastUsedAt ? row.lastUsedAt.toISOString() : null },
  };
}

/** The secret is shown once, in both client spellings; only its hash is stored. */
export async function createApiKey(ctx: AppContext, userId: string, name: string) {
  const secret = randomBytes(20).toString('hex');
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({ id: newId(), userId, name, secretHash: sha256(secret), prefix: `ul_${secret.slice(0, 6)}`, createdAt: ctx.clock.now() })
    .returning();
  return { ...presentApiKey(row!), key: `ul_${secret}`, legacyKey: `ul${secret}` };
}

export async function listApiKeys(ctx: AppContext, userId: string) {
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(presentApiKey);
}

export async function revokeApiKey(ctx: AppContext, userId: string, id: string) {
  const res = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (res.length === 0) throw errors.notFound('API key');
}
