import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { accessItem, itemLinkVersion, linkGrants, teamLinkVersionOf, type AccessItem } from '../access/index.js';
import { datasetQueries } from '../datasets/index.js';
import { modelQueries } from '../models/index.js';
import { projectQueries } from '../projects/index.js';
import { teamQueries } from '../teams/index.js';

/**
 * What the blob route asks before serving a signed link (ADR 0014 and 0023): a file of a
 * dataset or a model, or a project's cover image, is served only while its item exists, is in the
 * access state the link was issued for (privacy, team, trash: access/link-version.ts) and the
 * link's holder may still read it (access/link-grants.ts). A team's image lives while the team
 * does. Profile images carry no access version and are served on their signature alone.
 */
export async function blobLinkAccess(
  ctx: Pick<AppContext, 'db' | 'invalidations' | 'clock'>,
  key: string,
  access: string | null,
): Promise<'ok' | 'gone' | 'changed'> {
  const target = await linkTarget(ctx, key);
  if (target === undefined) return 'ok';
  if (target === null) return 'gone';
  if (!target.item) return access !== null && access === target.version ? 'ok' : 'changed';
  return (await linkGrants(ctx, target.item, target.version, access)) ? 'ok' : 'changed';
}

interface LinkTarget {
  /** the item whose access the link follows; null for a team's image (bound to the team's life only) */
  item: AccessItem | null;
  /** the item version links to it must carry now */
  version: string;
}

/** The item a blob belongs to; null when its item is gone, undefined when the blob belongs to no item. */
async function linkTarget(ctx: Pick<AppContext, 'db'>, key: string): Promise<LinkTarget | null | undefined> {
  const datasetId = blobKeys.datasetIdOf(key);
  if (datasetId) return targetOf('dataset', await datasetQueries.byId(ctx.db, datasetId));
  const modelId = blobKeys.modelIdOf(key);
  if (modelId) return targetOf('model', await modelQueries.byId(ctx.db, modelId));
  const projectId = blobKeys.projectIdOf(key);
  if (projectId) return targetOf('project', await projectQueries.byId(ctx.db, projectId));
  const teamId = blobKeys.teamIdOf(key);
  if (teamId) {
    const team = await teamQueries.byId(ctx.db, teamId);
    return team ? { item: null, version: teamLinkVersionOf(team) } : null;
  }
  return undefined;
}

type ItemRow = Parameters<typeof accessItem>[1] & Parameters<typeof itemLinkVersion>[0];
const targetOf = (kind: 'dataset' | 'model' | 'project', row: ItemRow | null): LinkTarget | null =>
  row ? { item: accessItem(kind, row), version: itemLinkVersion(row) } : null;
