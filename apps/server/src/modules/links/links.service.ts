import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { linkVersionOf } from '../access/index.js';
import { datasetsRepository } from '../datasets/datasets.repository.js';
import { modelsRepository } from '../models/models.repository.js';

/**
 * What the blob route asks before serving a signed link (issue 16): a file of a dataset or a model
 * is served only while its item exists and is in the access state the link was issued for (privacy,
 * team, trash: access/link-version.ts). Other blobs (profile, project and team images) carry no
 * access version and are served on their signature alone.
 */
export async function blobLinkAccess(ctx: Pick<AppContext, 'db'>, key: string, access: string | null): Promise<'ok' | 'gone' | 'changed'> {
  const datasetId = blobKeys.datasetIdOf(key);
  const modelId = datasetId ? null : blobKeys.modelIdOf(key);
  if (!datasetId && !modelId) return 'ok';
  const row = datasetId ? await datasetsRepository.byId(ctx.db, datasetId) : await modelsRepository.byId(ctx.db, modelId!);
  if (!row) return 'gone';
  return access !== null && access === linkVersionOf(row) ? 'ok' : 'changed';
}
