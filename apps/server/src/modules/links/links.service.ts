import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { linkVersionOf, teamLinkVersionOf } from '../access/index.js';
import { datasetsRepository } from '../datasets/datasets.repository.js';
import { modelsRepository } from '../models/models.repository.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { teamsRepository } from '../teams/teams.repository.js';

/**
 * What the blob route asks before serving a signed link (issue 16): a file of a dataset or a model
 * is served only while its item exists and is in the access state the link was issued for (privacy,
 * team, trash: access/link-version.ts); so is a project's cover image (privacy, team, trash) and a
 * team's image (the team's trash). Profile images carry no access version and are served on their
 * signature alone.
 */
export async function blobLinkAccess(ctx: Pick<AppContext, 'db'>, key: string, access: string | null): Promise<'ok' | 'gone' | 'changed'> {
  const version = await currentLinkVersion(ctx, key);
  if (version === undefined) return 'ok';
  if (version === null) return 'gone';
  return access !== null && access === version ? 'ok' : 'changed';
}

/** The access version links to this blob must carry now; null when its item is gone, undefined when the blob belongs to no item. */
async function currentLinkVersion(ctx: Pick<AppContext, 'db'>, key: string): Promise<string | null | undefined> {
  const datasetId = blobKeys.datasetIdOf(key);
  if (datasetId) return versionOf(await datasetsRepository.byId(ctx.db, datasetId));
  const modelId = blobKeys.modelIdOf(key);
  if (modelId) return versionOf(await modelsRepository.byId(ctx.db, modelId));
  const projectId = blobKeys.projectIdOf(key);
  if (projectId) return versionOf(await projectsRepository.byId(ctx.db, projectId));
  const teamId = blobKeys.teamIdOf(key);
  if (teamId) {
    const team = await teamsRepository.byId(ctx.db, teamId);
    return team ? teamLinkVersionOf(team) : null;
  }
  return undefined;
}

const versionOf = (row: Parameters<typeof linkVersionOf>[0] | null) => (row ? linkVersionOf(row) : null);
