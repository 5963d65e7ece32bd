import type { Readable } from 'node:stream';
import { ErrorCode, parseDatasetSegment } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { accessItem, itemLinkVersion, linkGrants, linkVersionOf } from '../access/index.js';
import {
  clientContent,
  datasetById,
  datasetBySlug,
  datasetNdjson,
  datasetZipKey,
  datasetZipName,
  ndjsonOf,
  type DatasetRow,
} from '../datasets/datasets.training-export.js';
import { versionForClient, versionImages, zipOfVersion, type VersionRow } from '../dataset-versions/index.js';
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
 * A processed dataset named by owner and the `ul://` segment (`slug` → the latest version, `slug:vN`
 * → version N; ADR 0038) that the viewer may read, with the version and the access version its links
 * are bound to; 409 while it is processing (the "not ready" both clients understand).
 */
export async function readyDatasetBySlug(ctx: AppContext, viewerId: string | null, owner: string, segment: string) {
  const ref = parseDatasetSegment(segment);
  if (!ref) throw errors.notFound('Dataset');
  const dataset = await datasetBySlug(ctx, viewerId, owner, ref.slug);
  if (!dataset.storageKey || !dataset.processedAt) throw errors.conflict(ErrorCode.DatasetNotReady, 'Resource not ready: the dataset is still processing');
  const version = await versionForClient(ctx, dataset, ref.version);
  return { id: dataset.id, slug: dataset.slug, version: version.number, access: linkVersionOf(dataset) };
}

/** The dataset and version a run names by `ul://<owner>/datasets/<segment>`, or null when it names none the user may read. */
export async function runDatasetOf(
  ctx: AppContext,
  userId: string,
  owner: string,
  segment: string,
): Promise<{ dataset: DatasetRow; version: VersionRow | null } | null> {
  const ref = parseDatasetSegment(segment);
  const dataset = ref ? await datasetBySlug(ctx, userId, owner, ref.slug).catch(() => null) : null;
  if (!ref || !dataset) return null;
  return { dataset, version: await versionForClient(ctx, dataset, ref.version).catch(() => null) };
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
): Promise<{ ndjson: Buffer } | { zipKey: string } | { zip: Readable; size: number | null }> {
  const dataset = await datasetById(ctx, datasetId);
  if (!dataset || dataset.deletedAt) throw errors.notFound('Dataset');
  // The link was issued for the dataset's access state then and to one holder: a privacy or team change
  // since, or a holder that lost access (revoked key, removed member), revokes it (ADR 0014, 0023).
  if (!access || !(await linkGrants(ctx, accessItem('dataset', dataset), itemLinkVersion(dataset), access)))
    throw errors.forbidden('This download link no longer grants access: ask for a new one');
  // Versioned files (ADR 0038): `<slug>.vN.ndjson` (Platform) and `<id>-<name>-vN.zip` (HUB); the unversioned names stay for links handed out before.
  const versioned = file === datasetZipName(dataset) ? null : (/\.v(\d{1,9})\.ndjson$/.exec(file) ?? /-v(\d{1,9})\.zip$/.exec(file));
  if (versioned) {
    const version = await versionForClient(ctx, dataset, Number(versioned[1]));
    if (file.endsWith('.ndjson')) {
      const content = clientContent(ctx, dataset, version.classes, await versionImages(ctx, dataset, version), baseUrl, access);
      if (!content.images.length) throw errors.conflict(ErrorCode.DatasetNotReady, 'This dataset version has no images to train on');
      return { ndjson: ndjsonOf(dataset, content, version.number) };
    }
    if (file !== datasetZipName(dataset, version.number)) throw errors.notFound('File');
    const zip = zipOfVersion(ctx, dataset, version, await versionImages(ctx, dataset, version));
    return { zip: zip.stream, size: await zip.size };
  }
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
