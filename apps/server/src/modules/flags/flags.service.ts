import { REMOTE_CONFIG_DEFAULTS, type FlagName, type RemoteConfig } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { flagsRepository } from './flags.repository.js';

export async function getFlags(ctx: Pick<AppContext, 'db'>): Promise<RemoteConfig['flags']> {
  const rows = await flagsRepository.all(ctx.db);
  const flags: Record<string, boolean> = { ...REMOTE_CONFIG_DEFAULTS };
  for (const r of rows) if (r.name in flags) flags[r.name] = r.enabled;
  return flags as RemoteConfig['flags'];
}

export async function isEnabled(ctx: Pick<AppContext, 'db'>, name: FlagName) {
  return (await getFlags(ctx))[name];
}

export async function updateFlags(ctx: AppContext, by: string, patch: Partial<Record<FlagName, boolean>>) {
  for (const [name, enabled] of Object.entries(patch)) {
    if (enabled === undefined) continue;
    const now = ctx.clock.now();
    await flagsRepository.upsert(ctx.db, { name, enabled, updatedAt: now, updatedBy: by });
  }
  const flags = await getFlags(ctx);
  await ctx.events.emit('flags.updated', null, { flags });
  return flags;
}

export async function removeFlag(ctx: AppContext, name: string) {
  await flagsRepository.remove(ctx.db, name);
}
