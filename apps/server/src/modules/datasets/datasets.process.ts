import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { JobRow } from '../../platform/jobs/job-queue.js';
import { newId } from '../../platform/ids.js';
import { makeThumbnails, processArchive, type DatasetTask, type ThumbnailSource } from './processing/index.js';
import { datasetsRepository } from './datasets.repository.js';
import { publish } from './datasets.service.js';

const BATCH = 200;
type ImageInsert = Parameters<typeof datasetsRepository.insertImages>[1][number];

/**
 * The dataset.process job. Idempotent: it clears what an earlier (crashed) run left, then reads
 * the archive once, storing the labels of every image, and marks the dataset Ready; a second stage
 * (`thumbnails` in the progress) then makes the previews, one sharp call per core, while the dataset
 * is already usable. The originals are never copied: they are served straight from the archive by
 * byte range. A job that dies is picked up again by any instance when its lease runs out.
 */
export function registerDatasetProcessing(ctx: AppContext, queue: string) {
  ctx.jobs.register(queue, async (job: JobRow, helpers) => {
    const datasetId = String(job.payload.datasetId);
    const row = await datasetsRepository.byId(ctx.db, datasetId);
    if (!row || row.deletedAt || !row.storageKey) return;
    const thumbPrefix = `users/${row.userId}/datasets/${row.id}/thumbs/`;
    await datasetsRepository.clearImages(ctx.db, row.id);
    await ctx.blobs.deletePrefix(thumbPrefix);

    let archivePath = ctx.blobs.localPath?.(row.storageKey) ?? null;
    let tmp: string | null = null;
    if (!archivePath) {
      // Remote blobs: zip reading needs random access, so the archive comes to local disk once.
      tmp = path.join(os.tmpdir(), `sl-dataset-${row.id}-${newId()}${path.extname(row.storageKey)}`);
      const { stream } = await ctx.blobs.get(row.storageKey);
      await pipeline(stream, fs.createWriteStream(tmp));
      archivePath = tmp;
    }
    const pending: ImageInsert[] = [];
    const thumbSources: ThumbnailSource[] = [];
    const flush = async () => {
      const batch = pending.splice(0);
      await datasetsRepository.insertImages(ctx.db, batch);
    };
    let lastProgress = 0;
    try {
      const task = (row.task === 'semantic-segment' ? 'segment' : row.task) as DatasetTask;
      const result = await processArchive({
        archivePath,
        task,
        onProgress: (p) => {
          const now = Date.now();
          if (now - lastProgress < 500 && p.phase === 'images') return;
          lastProgress = now;
          reportProgress(ctx, helpers, row.id, p.phase, p.done, p.total);
        },
        onImage: async (img) => {
          const id = newId();
          // sharp has no BMP decoder; unverified formats (heic) have no format: both keep no preview.
          if (img.format && img.format !== 'bmp') thumbSources.push({ id, entryName: img.entryName });
          pending.push({
            id,
            datasetId: row.id,
            split: img.split,
            name: img.name,
            entryName: img.entryName,
            width: img.width,
            height: img.height,
            format: img.format,
            className: img.className,
            labels: img.labels,
            source: {
              dataOffset: img.source.dataOffset,
              compressedSize: img.source.compressedSize,
              uncompressedSize: img.source.uncompressedSize,
              compressionMethod: img.source.compressionMethod,
              format: img.source.format,
            },
            thumbKey: null,
          });
          if (pending.length >= BATCH) await flush();
        },
      });
      await flush();
      const now = ctx.clock.now();
      if (result.ok) {
        const updated = await datasetsRepository.update(ctx.db, row.id, {
          status: 'Ready',
          processedAt: now,
          failedAt: null,
          error: null,
          stats: result.stats,
          report: result.report,
          updatedAt: now,
        });
        await publish(ctx, updated!, 'dataset.updated');
        await thumbnailStage(ctx, helpers, row, archivePath, thumbSources, thumbPrefix);
      } else {
        await datasetsRepository.clearImages(ctx.db, row.id);
        await ctx.blobs.deletePrefix(thumbPrefix);
        const first = result.fatal ?? result.report.errors[0];
        const updated = await datasetsRepository.update(ctx.db, row.id, {
          status: 'Failed',
          failedAt: now,
          processedAt: null,
          error: first ? `${first.code}: ${first.message}` : ErrorCode.Unknown,
          stats: null,
          report: result.report,
          updatedAt: now,
        });
        await publish(ctx, updated!, 'dataset.updated');
      }
    } catch (err) {
      await datasetsRepository.clearImages(ctx.db, row.id);
      if (job.attempts >= job.maxAttempts) {
        const now = ctx.clock.now();
        const updated = await datasetsRepository.update(ctx.db, row.id, { status: 'Failed', failedAt: now, error: `error/processing: ${(err as Error).message}`, updatedAt: now });
        await publish(ctx, updated!, 'dataset.updated');
        return;
      }
      throw err;
    } finally {
      if (tmp) fs.rmSync(tmp, { force: true });
    }
  });
}

type Helpers = Parameters<Parameters<AppContext['jobs']['register']>[1]>[1];

function reportProgress(ctx: AppContext, helpers: Helpers, id: string, phase: string, done: number, total: number) {
  void helpers.progress({ phase, done, total }).catch(() => undefined);
  void ctx.bus.publish(topics.dataset(id), 'dataset.progress', { id, phase, done, total }).catch(() => undefined);
}

/**
 * Previews for a Ready dataset. Written straight to their final path on local storage (the key is
 * recorded only once the file is complete, so no temp file and rename per thumbnail), keys set in
 * batches. A failure here leaves the dataset Ready with fewer previews, never Failed.
 */
async function thumbnailStage(ctx: AppContext, helpers: Helpers, row: { id: string }, archivePath: string, images: ThumbnailSource[], prefix: string) {
  if (images.length === 0) return;
  const localFile = ctx.blobs.localPath?.(`${prefix}dir.jpg`);
  const localDir = localFile ? path.dirname(localFile) : null;
  const made: string[] = [];
  const flush = async () => datasetsRepository.setThumbKeys(ctx.db, row.id, made.splice(0), prefix);
  try {
    if (localDir) await fs.promises.mkdir(localDir, { recursive: true });
    reportProgress(ctx, helpers, row.id, 'thumbnails', 0, images.length);
    await makeThumbnails({
      archivePath,
      images,
      progressIntervalMs: 500,
      onProgress: (done, total) => reportProgress(ctx, helpers, row.id, 'thumbnails', done, total),
      onThumbnail: async (id, thumb) => {
        if (!thumb) return; // unreadable formats still get their labels listed
        if (localDir) await fs.promises.writeFile(path.join(localDir, `${id}.jpg`), thumb);
        else await ctx.blobs.put(`${prefix}${id}.jpg`, thumb, { contentType: 'image/jpeg' });
        made.push(id);
        if (made.length >= BATCH) await flush();
      },
    });
    await flush();
  } catch (err) {
    ctx.log.warn({ err, datasetId: row.id }, 'dataset thumbnails stopped early');
    await flush().catch(() => undefined);
  }
  const updated = await datasetsRepository.byId(ctx.db, row.id);
  if (updated && !updated.deletedAt) await publish(ctx, updated, 'dataset.updated');
}
