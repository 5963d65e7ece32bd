import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { accessItem, itemLinkVersion, linkGrants, linkVersionOf } from '../access/index.js';
import { datasetById, datasetBySlug, datasetNdjson, datasetZipKey, datasetZipName } from '../datasets/datasets.training-export.js';
import { fileUrl } from '../models/models.presenter.js';
import { modelsPolicy } from '../models/models.policy.js';
import { modelQueries } from '../models/index.js';
import { projectQueries } from '../projects/index.js';
import { userQueries } from '../users/index.js';
import { fileOf } from './training.checkpoints.js';
import { trainingRepository } from './training.repository.js';

/**
 * What a training client downloads and checks, whatever its protocol: the account it logs into, a
 * dataset or a model's weights named by owner and slugs, and the dataset files behind signed links.
 * The URL layouts and the `ul://` forms are the adapters' (compat/).
 */

/** What a client's account summary counts (the Platform client's login check). */
export async function accountCounts(ctx: AppContext, userId: string) {
  return trainingRepository.liveCounts(ctx.db, userId);
}

/**
 * A processed dataset named by owner and slug that the viewer may read, with the access version its
 * links are bound to; 409 while it is processing (the "not ready" both clients understand).
 */
export async function readyDatasetBySlug(ctx: AppContext, viewerId: string | null, owner: string, slug: string) {
  const dataset = await datasetBySlug(ctx, viewerId, owner, slug);
  if (!dataset.storageKey) throw errors.conflict(ErrorCode.DatasetNotReady, 'Resource not ready: the dataset is still processing');
  return { id: dataset.id, slug: dataset.slug, access: linkVersionOf(dataset) };
}

/** A model named by owner, project and model slugs, its best weights and a signed URL for them (living `ttlMs`); 409 without weights. */
export async function bestWeightsBySlugs(
  ctx: AppContext,
  viewerId: string | null,
  ref: { owner: string; project: string; model: string },
  baseUrl: string,
  ttlMs: number,
) {
  const ownerRow = await userQueries.byUsername(ctx.db, ref.owner);
  if (!ownerRow || ownerRow.deletedAt) throw errors.notFound('Model');
  const project = await projectQueries.bySlug(ctx.db, ownerRow.id, ref.project);
  const model = await modelsPolicy.read(ctx, viewerId, project ? await modelQueries.bySlug(ctx.db, ownerRow.id, project.id, ref.model) : null, project);
  const best = await fileOf(ctx, model.id, 'best');
  if (!best) throw errors.conflict(ErrorCode.ModelNotReady, 'Resource not ready: the model has no weights yet');
  return { best, url: fileUrl(best, { secret: ctx.secret, baseUrl, now: ctx.clock.now(), access: linkVersionOf(model) }, ttlMs) };
}

/**
 * A dataset file behind a signed link (the caller checked the signature): `<slug>.ndjson`
 * (Platform) is built in memory, `<id>-<name>.zip` (HUB) is the normalized zip's blob.
 */
export async function clientDatasetFile(
  ctx: AppContext,
  datasetId: string,
  file: string,
  baseUrl: string,
  access: string | null,
): Promise<{ ndjson: Buffer } | { zipKey: string }> {
  const dataset = await datasetById(ctx, datasetId);
  if (!dataset || dataset.deletedAt) throw errors.notFound('Dataset');
  // The link was issued for the dataset's access state then and to one holder: a privacy or team change
  // since, or a holder that lost access (revoked key, removed member), revokes it (ADR 0014, 0023).
  if (!access || !(await linkGrants(ctx, accessItem('dataset', dataset), itemLinkVersion(dataset), access)))
    throw errors.forbidden('This download link no longer grants access: ask for a new one');
  if (file.endsWith('.ndjson')) return { ndjson: await datasetNdjson(ctx, dataset, baseUrl, access) };
  if (file !== datasetZipName(dataset)) throw errors.notFound('File');
  return { zipKey: await datasetZipKey(ctx, dataset) };
}

/** The owner of a model a signed upload link names, with the model (null when either is gone). */
export async function modelForSignedUpload(ctx: AppContext, modelId: string) {
  const model = modelId ? await modelQueries.byId(ctx.db, modelId) : null;
  const owner = model ? await userQueries.byId(ctx.db, model.userId) : null;
  if (!model || model.deletedAt || !owner) return null;
  return { model, owner };
}
