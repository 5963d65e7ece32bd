import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { datasetImages as datasetImagesTable, datasets, users } from '../../platform/db/schema.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { ensureNormalizedZip } from '../datasets/datasets.export.js';
import { imageUrl } from '../datasets/datasets.routes.js';
import { processArchive } from '../datasets/processing/process-archive.js';
import type { DatasetTask, LabelRow, Split } from '../datasets/processing/types.js';
import { canRead } from '../projects/access.js';
import { signCompatUrl } from './training.files.js';

/**
 * Datasets as the ultralytics client consumes them: a zip (HUB protocol) or an NDJSON listing of
 * images with signed URLs (Platform protocol). Both go through one function each, so they can switch
 * to the dataset pipeline's normalized zip and per-image store once those exist.
 */

export type DatasetRow = typeof datasets.$inferSelect;

/** Finds a dataset by `ul://<username>/datasets/<slug>` parts; the viewer must be allowed to read it. */
export async function datasetBySlug(ctx: AppContext, viewerId: string | null, username: string, slug: string): Promise<DatasetRow> {
  const [row] = await ctx.db
    .select({ d: datasets })
    .from(datasets)
    .innerJoin(users, eq(users.id, datasets.userId))
    .where(and(eq(users.username, username), eq(datasets.slug, slug), isNull(users.deletedAt)))
    .limit(1);
  if (!row || !canRead(viewerId, row.d)) throw errors.notFound('Dataset');
  return row.d;
}

export async function datasetById(ctx: AppContext, id: string) {
  return (await ctx.db.select().from(datasets).where(eq(datasets.id, id)).limit(1))[0] ?? null;
}

/** 409 is what both clients understand as "not ready yet" (platform-protocol §5.1). */
function assertArchive(dataset: DatasetRow): string {
  if (!dataset.storageKey) throw errors.conflict('error/dataset-not-ready', 'This dataset has no uploaded archive yet; it is still processing');
  return dataset.storageKey;
}

/** Unique, `.zip`-suffixed last path segment: the HUB client reuses any local file with the same name. */
export function datasetZipName(dataset: DatasetRow): string {
  const stem = (dataset.filename ?? dataset.slug).replace(/\.(zip|tar|tar\.gz|tgz)$/i, '').replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 80) || 'dataset';
  return `${dataset.id}-${stem}.zip`;
}

export const datasetZipPath = (dataset: DatasetRow) => `/v1/compat/datasets/${dataset.id}/${datasetZipName(dataset)}`;

/**
 * The dataset URL handed to HUB clients (`data`, `train_args.data`). Signing is cheap; what it serves
 * is decided when the client fetches it (datasetZipKey), so reading a model never builds a zip.
 */
export function datasetDownloadUrl(ctx: AppContext, dataset: DatasetRow, baseUrl: string): string {
  assertArchive(dataset);
  return signCompatUrl(ctx, baseUrl, datasetZipPath(dataset));
}

/**
 * The blob behind datasetDownloadUrl: the dataset pipeline's normalized zip (one layout every client
 * reads, built once and cached) for a processed dataset, else the uploaded archive as it is.
 */
export async function datasetZipKey(ctx: AppContext, dataset: DatasetRow): Promise<string> {
  if (dataset.processedAt && dataset.storageKey) return (await ensureNormalizedZip(ctx, dataset)).key;
  return assertArchive(dataset);
}

// ---------------------------------------------------------------------------------------------
// Per-image access for the NDJSON export.

export interface ImageSource {
  format: string;
  dataOffset: number;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
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

interface ArchiveIndex {
  version: 1;
  archiveKey: string;
  archiveBytes: number;
  archiveModified: number;
  task: DatasetTask;
  classNames: string[];
  images: Array<Omit<DatasetImage, 'url'> & { source: ImageSource }>;
}

const INDEX_VERSION = 1;
const memo = new Map<string, ArchiveIndex>();
const building = new Map<string, Promise<ArchiveIndex>>();
const MEMO_LIMIT = 8;

const indexKey = (dataset: DatasetRow) => `users/${dataset.userId}/datasets/${dataset.id}/compat/archive-index-v${INDEX_VERSION}.json`;
const imageId = (entryName: string) => createHash('sha256').update(entryName).digest('hex').slice(0, 16);

/** Archive processing reads by offset from a file; S3 blobs are copied to a temp file first. */
async function withLocalCopy<T>(ctx: AppContext, key: string, fn: (file: string) => Promise<T>): Promise<T> {
  const local = ctx.blobs.localPath?.(key);
  if (local) return fn(local);
  const tmp = path.join(os.tmpdir(), `sl-archive-${newId()}`);
  try {
    const blob = await ctx.blobs.get(key);
    await pipeline(blob.stream, fs.createWriteStream(tmp));
    return await fn(tmp);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Lists the images of the uploaded archive once (with the same checks as dataset processing), and
 * keeps the result as a blob beside the dataset plus a small in-memory copy: the client fetches up to
 * 128 images at once, and each fetch must not re-read the archive's central directory.
 */
async function archiveIndex(ctx: AppContext, dataset: DatasetRow): Promise<ArchiveIndex> {
  const archiveKey = assertArchive(dataset);
  const head = await ctx.blobs.head(archiveKey);
  if (!head) throw errors.conflict('error/dataset-not-ready', 'The dataset archive is missing');
  const fresh = (ix: ArchiveIndex | undefined) => ix && ix.archiveKey === archiveKey && ix.archiveBytes === head.bytes && ix.archiveModified === head.modified.getTime();
  const cached = memo.get(dataset.id);
  if (fresh(cached)) return cached!;
  const pending = building.get(dataset.id);
  if (pending) return pending;
  const work = (async () => {
    try {
      const stored = await ctx.blobs.get(indexKey(dataset)).then(
        async (b) => JSON.parse((await streamToBuffer(b.stream)).toString('utf8')) as ArchiveIndex,
        () => undefined,
      );
      if (fresh(stored)) return remember(dataset.id, stored!);
      const task = (['detect', 'segment', 'pose', 'obb', 'classify'] as const).find((t) => t === dataset.task);
      if (!task) throw new AppError(409, 'error/unsupported-task', `Datasets of task ${dataset.task} cannot be exported for training`);
      const images: ArchiveIndex['images'] = [];
      const result = await withLocalCopy(ctx, archiveKey, (file) =>
        processArchive({
          archivePath: file,
          task,
          onImage: (img) => {
            images.push({
              id: imageId(img.entryName),
              name: img.name,
              split: img.split,
              width: img.width,
              height: img.height,
              labels: img.labels,
              source: { format: img.source.format, dataOffset: img.source.dataOffset, compressedSize: img.source.compressedSize, uncompressedSize: img.source.uncompressedSize, compressionMethod: img.source.compressionMethod },
            });
          },
        }),
      );
      if (!result.ok || !result.stats) throw errors.conflict('error/dataset-invalid', result.fatal?.message ?? 'The dataset archive has errors; fix them before training');
      images.sort((a, b) => a.split.localeCompare(b.split) || a.name.localeCompare(b.name));
      const index: ArchiveIndex = { version: 1, archiveKey, archiveBytes: head.bytes, archiveModified: head.modified.getTime(), task, classNames: result.stats.summary.classes, images };
      // A derived cache: not counted as the user's storage, rebuilt whenever the archive changes.
      await ctx.blobs.put(indexKey(dataset), Buffer.from(JSON.stringify(index)), { contentType: 'application/json' });
      return remember(dataset.id, index);
    } finally {
      building.delete(dataset.id);
    }
  })();
  building.set(dataset.id, work);
  return work;
}

function remember(id: string, index: ArchiveIndex): ArchiveIndex {
  memo.delete(id);
  memo.set(id, index);
  while (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  return index;
}

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export const imagePath = (dataset: DatasetRow, img: { id: string; name: string }) => `/v1/compat/datasets/${dataset.id}/images/${img.id}_${encodeURIComponent(img.name)}`;

/**
 * Every image of a dataset with a signed URL whose path never changes (the client's conversion cache
 * hashes URL paths, not queries). The interface the per-image store will implement later.
 */
export async function datasetImages(ctx: AppContext, dataset: DatasetRow, baseUrl: string | null): Promise<{ task: DatasetTask; classNames: string[]; images: DatasetImage[] }> {
  // Processed datasets have the per-image store (dataset_images + the stable signed raw-image route).
  if (dataset.processedAt) {
    const rows = await ctx.db.select().from(datasetImagesTable).where(eq(datasetImagesTable.datasetId, dataset.id)).orderBy(asc(datasetImagesTable.split), asc(datasetImagesTable.name));
    const classes = (dataset.stats as { summary?: { classes?: unknown } } | null)?.summary?.classes;
    if (rows.length && Array.isArray(classes)) {
      return {
        task: (dataset.task === 'semantic-segment' ? 'segment' : dataset.task) as DatasetTask,
        classNames: classes.map(String),
        images: rows.map((r) => ({
          id: r.id,
          name: r.name,
          split: r.split as Split,
          width: r.width,
          height: r.height,
          labels: r.labels,
          url: baseUrl ? imageUrl(ctx.secret, dataset.id, r.id, baseUrl) : null,
        })),
      };
    }
  }
  // Not processed (yet): list the uploaded archive ourselves, with the same checks.
  const index = await archiveIndex(ctx, dataset);
  return {
    task: index.task,
    classNames: index.classNames,
    images: index.images.map(({ source: _source, ...img }) => ({ ...img, url: baseUrl ? signCompatUrl(ctx, baseUrl, imagePath(dataset, img)) : null })),
  };
}

const ANNOTATION_KEY: Record<DatasetTask, string> = { detect: 'boxes', segment: 'segments', pose: 'pose', obb: 'obb', classify: 'classification' };

/** The NDJSON of platform-protocol §5.4: a dataset line, then one line per image. */
export async function datasetNdjson(ctx: AppContext, dataset: DatasetRow, baseUrl: string): Promise<Buffer> {
  const { task, classNames, images } = await datasetImages(ctx, dataset, baseUrl);
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
        annotations: { [ANNOTATION_KEY[task]]: img.labels },
      }),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Opens one image's original bytes straight out of the archive by byte range. */
export async function openDatasetImage(ctx: AppContext, dataset: DatasetRow, id: string): Promise<{ name: string; bytes: number; stream: Readable }> {
  const index = await archiveIndex(ctx, dataset);
  const img = index.images.find((i) => i.id === id);
  if (!img) throw errors.notFound('Image');
  const { source } = img;
  const raw = source.compressedSize === 0 ? null : await ctx.blobs.get(index.archiveKey, { start: source.dataOffset, end: source.dataOffset + source.compressedSize - 1 });
  if (!raw) return { name: img.name, bytes: 0, stream: new PassThrough().end() };
  if (source.compressionMethod === 0) return { name: img.name, bytes: source.uncompressedSize, stream: raw.stream };
  if (source.compressionMethod !== 8) throw new AppError(409, 'error/unsupported-compression', 'This image is stored with a compression method that cannot be served');
  const inflate = createInflateRaw();
  raw.stream.on('error', (err) => inflate.destroy(err));
  return { name: img.name, bytes: source.uncompressedSize, stream: raw.stream.pipe(inflate) };
}

export function imageContentType(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return ({ jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff' } as Record<string, string>)[ext] ?? 'application/octet-stream';
}
