import { randomBytes } from 'node:crypto';
import type { ApiKey } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { cacheTags } from '../../platform/cache/invalidation.js';
import type { CredentialScope } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import { newId, sha256 } from '../../platform/ids.js';
import { record } from '../audit/audit.service.js';
import { apiKeysRepository, type ApiKeyRow } from './api-keys.repository.js';

export function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    dates: { created: row.createdAt.toISOString(), lastUsed: row.lastUsedAt ? row.lastUsedAt.toISOString() : null },
  };
}

/** The secret is shown once, in both client spellings; only its hash is stored. */
export async function createApiKey(ctx: AppContext, userId: string, name: string, scope: CredentialScope | null = null) {
  const secret = randomBytes(20).toString('hex');
  const row = await apiKeysRepository.insert(ctx.db, {
    id: newId(),
    userId,
    name,
    secretHash: sha256(secret),
    prefix: `ul_${secret.slice(0, 6)}`,
    createdAt: ctx.clock.now(),
    scope,
  });
  await record(ctx, { action: 'api_key.create', target: { type: 'api_key', id: row.id, label: `${row.name} (${row.prefix})` }, userId });
  return { ...presentApiKey(row), key: `ul_${secret}`, legacyKey: `ul${secret}` };
}

export async function listApiKeys(ctx: AppContext, userId: string) {
  return (await apiKeysRepository.activeOf(ctx.db, userId)).map(presentApiKey);
}

export async function revokeApiKey(ctx: AppContext, userId: string, id: string) {
  if (!(await apiKeysRepository.revoke(ctx.db, userId, id, ctx.clock.now()))) throw errors.notFound('API key');
  await record(ctx, { action: 'api_key.revoke', target: { type: 'api_key', id }, userId });
  // This instance forgets the key now; the others on the api_keys trigger's NOTIFY (migration 0017).
  ctx.invalidations.evict(cacheTags.user(userId));
}
