import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { JobRow } from '../../platform/jobs/job-queue.js';
import { newId } from '../../platform/ids.js';
import { makeThumbnail, processArchive, type DatasetTask } from './processing/index.js';
import { datasetsRepository } from './datasets.repository.js';
import { publish } from './datasets.service.js';

const BATCH = 200;
type ImageInsert = Parameters<typeof datasetsRepository.insertImages>[1][number];

/**
 * The dataset.process job. Idempotent: it clears what an earlier (crashed) run left, then reads
 * the archive once, storing a thumbnail and the labels of every image; the originals are never
 * copied: they are served straight from the archive by byte range. A job that dies is picked up
 * again by any instance when its lease runs out.
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
          void helpers.progress({ phase: p.phase, done: p.done, total: p.total }).catch(() => undefined);
          void ctx.bus.publish(`dataset:${row.id}`, 'dataset.progress', { id: row.id, phase: p.phase, done: p.done, total: p.total }).catch(() => undefined);
        },
        onImage: async (img) => {
          const id = newId();
          let thumbKey: string | null = null;
          try {
            const thumb = await makeThumbnail(img.data);
            thumbKey = `${thumbPrefix}${id}.jpg`;
            await ctx.blobs.put(thumbKey, thumb, { contentType: 'image/jpeg' });
          } catch {
            thumbKey = null; // unreadable formats (e.g. heic) still get their labels listed
          }
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
            thumbKey,
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
          stats: result.stats as unknown as Record<string, unknown>,
          report: result.report as unknown as Record<string, unknown>,
          updatedAt: now,
        });
        await publish(ctx, updated!, 'dataset.updated');
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
          report: result.report as unknown as Record<string, unknown>,
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
