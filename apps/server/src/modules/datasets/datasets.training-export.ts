import type { AppContext } from '../../context.js';
import { ErrorCode } from '@sightline/contracts';
import { errors } from '../../platform/http/errors.js';
import { CLIENT_URL_TTL_MS, signCompatUrl } from '../../platform/http/signed-links.js';
import { linkVersionOf } from '../access/index.js';
import { ensureNormalizedZip } from './datasets.export.js';
import { imageUrl } from './datasets.image-urls.js';
import { datasetsPolicy } from './datasets.policy.js';
import { datasetsRepository, type DatasetRow } from './datasets.repository.js';
import type { DatasetTask, LabelRow, Split } from './processing/types.js';

/**
 * Datasets as the ultralytics client consumes them: the normalized zip (HUB protocol) or an NDJSON
 * listing of images with signed URLs (Platform protocol). Both read what dataset processing made;
 * a dataset that is not processed yet answers 409, the "not ready" both clients understand.
 */

export type { DatasetRow };

/** Finds a dataset by `ul://<username>/datasets/<slug>` parts; the viewer must be allowed to read it. */
export async function datasetBySlug(ctx: AppContext, viewerId: string | null, username: string, slug: string): Promise<DatasetRow> {
  return datasetsPolicy.read(ctx, viewerId, await datasetsRepository.byOwnerUsername(ctx.db, username, slug));
}

export async function datasetById(ctx: AppContext, id: string) {
  return datasetsRepository.byId(ctx.db, id);
}

/** 409 is what both clients understand as "not ready yet" (platform-protocol §5.1). */
function assertProcessed(dataset: DatasetRow) {
  if (!dataset.processedAt || !dataset.storageKey) throw errors.conflict(ErrorCode.DatasetNotReady, 'This dataset is still processing; train once it is Ready');
}

/** Unique, `.zip`-suffixed last path segment: the HUB client reuses any local file with the same name. */
export function datasetZipName(dataset: DatasetRow): string {
  const stem =
    (dataset.filename ?? dataset.slug)
      .replace(/\.(zip|tar|tar\.gz|tgz)$/i, '')
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .slice(0, 80) || 'dataset';
  return `${dataset.id}-${stem}.zip`;
}

export const datasetZipPath = (dataset: DatasetRow) => `/v1/compat/datasets/${dataset.id}/${datasetZipName(dataset)}`;

/**
 * The dataset URL handed to HUB clients (`data`, `train_args.data`). Signing is cheap; what it serves
 * is decided when the client fetches it (datasetZipKey), so reading a model never builds a zip.
 */
export function datasetDownloadUrl(ctx: AppContext, dataset: DatasetRow, baseUrl: string): string {
  assertProcessed(dataset);
  return signCompatUrl(ctx, baseUrl, datasetZipPath(dataset), undefined, linkVersionOf(dataset));
}

/** The blob behind datasetDownloadUrl: the normalized zip (one layout every client reads, built once and cached). */
export async function datasetZipKey(ctx: AppContext, dataset: DatasetRow): Promise<string> {
  assertProcessed(dataset);
  return (await ensureNormalizedZip(ctx, dataset)).key;
}

export interface DatasetImage {
  /** Stable id without `_`, so `<id>_<name>` maps validation rows back to the image (traces README). */
  id: string;
  name: string;
  split: Split;
  width: number | null;
  height: number | null;
  labels: LabelRow[];
  /** Signed, stable-path URL; null when no base URL was given. */
  url: string | null;
}

const HOUR_MS = 3_600_000;

/**
 * Every image of a dataset with a signed URL whose path never changes (the client's conversion cache
 * hashes URL paths, not queries). The interface the per-image store will implement later.
 */
export async function datasetImages(
  ctx: AppContext,
  dataset: DatasetRow,
  baseUrl: string | null,
  access = linkVersionOf(dataset),
): Promise<{ task: DatasetTask; classNames: string[]; images: DatasetImage[] }> {
  // Training reads the per-image store of processed datasets (dataset_images + the stable signed raw-image route).
  assertProcessed(dataset);
  {
    const rows = await datasetsRepository.allImages(ctx.db, dataset.id);
    const classes = dataset.classes ?? (dataset.stats as { summary?: { classes?: unknown } } | null)?.summary?.classes;
    if (rows.length && Array.isArray(classes)) {
      // Training runs read images for days: client links last CLIENT_URL_TTL_MS, still bound to the dataset's access version.
      // `access` is the compat link's when the NDJSON is served through one: its images keep that link's holder (ADR 0023).
      // The expiry is rounded up to the hour, so the NDJSON's bytes stay the same between requests
      // and a Range request (curl -C, a resumed download) continues the same file.
      const link = { access, expiresAt: new Date(Math.ceil((ctx.clock.now().getTime() + CLIENT_URL_TTL_MS) / HOUR_MS) * HOUR_MS) };
      return {
        task: (dataset.task === 'semantic-segment' ? 'segment' : dataset.task) as DatasetTask,
        classNames: classes.map(String),
        images: rows.map((r) => ({
          id: r.imageId,
          name: r.name,
          split: r.split as Split,
          width: r.width,
          height: r.height,
          labels: r.labels,
          url: baseUrl ? imageUrl(ctx.secret, dataset.id, r.imageId, link, baseUrl) : null,
        })),
      };
    }
  }
  throw errors.conflict(ErrorCode.DatasetNotReady, 'This dataset has no images to train on');
}

const ANNOTATION_KEY: Record<DatasetTask, string> = { detect: 'boxes', segment: 'segments', pose: 'pose', obb: 'obb', classify: 'classification' };

/** The NDJSON of platform-protocol §5.4: a dataset line, then one line per image. */
export async function datasetNdjson(ctx: AppContext, dataset: DatasetRow, baseUrl: string, access?: string): Promise<Buffer> {
  const { task, classNames, images } = await datasetImages(ctx, dataset, baseUrl, access);
  const header: Record<string, unknown> = {
    type: 'dataset',
    task,
    name: dataset.slug,
    description: dataset.description,
    class_names: Object.fromEntries(classNames.map((n, i) => [String(i), n])),
    version: 1,
    created_at: dataset.createdAt.toISOString(),
    updated_at: dataset.updatedAt.toISOString(),
  };
  if (task === 'pose') {
    // The yaml's kpt_shape is not kept by the processing summary; label rows carry 5 + k·dims values.
    const row = images.find((i) => i.labels.length)?.labels[0];
    if (row) {
      const rest = row.length - 5;
      const dims = rest % 3 === 0 ? 3 : 2;
      header.kpt_shape = [rest / dims, dims];
    }
  }
  const lines = [JSON.stringify(header)];
  for (const img of images) {
    lines.push(
      JSON.stringify({
        type: 'image',
        file: `${img.id}_${img.name}`,
        url: img.url,
        width: img.width,
        height: img.height,
        split: img.split,
        // A classify image's one label row is its class: ultralytics reads `classification: [id]` (platform-protocol §5.4).
        annotations: { [ANNOTATION_KEY[task]]: task === 'classify' ? img.labels.map((r) => Number(r[0])) : img.labels },
      }),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}
