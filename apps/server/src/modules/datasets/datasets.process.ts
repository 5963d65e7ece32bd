import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { isLeaseLost, PermanentJobError, type JobRow } from '../../platform/jobs/job-queue.js';
import { storableJson, storableText } from '../../platform/db/storable.js';
import { newId } from '../../platform/ids.js';
import { processArchive, type DatasetTask } from './processing/index.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { datasetsRepository } from './datasets.repository.js';
import { dropBlobs } from './datasets.image-source.js';

const BATCH = 200;
type ImageInsert = Parameters<typeof datasetsRepository.insertImages>[1][number];

/**
 * The dataset.process job. Idempotent: it clears what an earlier (crashed) run left, then reads
 * the archive once, storing the labels of every image, and marks the dataset Ready. Previews are
 * not made here: each is made on first view and kept (datasets.thumbnails.ts). The originals are
 * never copied: they are served straight from the archive by byte range. A job that dies is picked
 * up again by any instance when its lease runs out.
 */
export function registerDatasetProcessing(ctx: AppContext, queue: string) {
  ctx.jobs.register(queue, (job, helpers) => processDataset(ctx, job, helpers), {
    // Every way the job can end for good (last attempt threw, holder died on it) leaves the dataset Failed.
    onFailed: async (job, error) => {
      const row = await datasetsRepository.byId(ctx.db, String(job.payload.datasetId));
      if (!row || row.deletedAt || row.status === 'Ready' || row.status === 'Failed') return;
      await dropBlobs(ctx, await ctx.db.transaction(async (tx) => retire(tx, row.id)));
      const now = ctx.clock.now();
      const updated = await datasetsRepository.update(ctx.db, row.id, {
        status: 'Failed',
        failedAt: now,
        processedAt: null,
        error: storableText(`error/processing: ${error}`),
        updatedAt: now,
      });
      await emitOutcome(ctx, updated!);
    },
  });
}

/** A failed run leaves no working rows: those it made go, those a version sees are ended (ADR 0038). */
async function retire(tx: Db, datasetId: string) {
  return datasetsRepository.retireImages(tx, datasetId, (await datasetsRepository.nextSeq(tx, datasetId, {})).seq);
}

async function processDataset(ctx: AppContext, job: JobRow, helpers: Helpers) {
  const datasetId = String(job.payload.datasetId);
  const row = await datasetsRepository.byId(ctx.db, datasetId);
  if (!row || row.deletedAt || !row.storageKey) return;
  const thumbPrefix = blobKeys.datasetThumbs(row.userId, row.id);
  // Every write of the results goes through helpers.fenced (ADR 0025): an attempt that lost its lease
  // (its instance stalled past it while another took the job over) writes nothing more.
  // The new archive's images start a new revision (ADR 0037): a version saved before never sees them,
  // and the rows it sees are ended at that revision, not deleted (ADR 0038: reprocessing keeps versions).
  const { seq, gone } = await helpers.fenced(async (tx) => {
    const seq = (await datasetsRepository.nextSeq(tx, row.id, {})).seq;
    return { seq, gone: await datasetsRepository.retireImages(tx, row.id, seq) };
  });
  await dropBlobs(ctx, gone);
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
    await helpers.fenced((tx) => datasetsRepository.insertImages(tx, batch));
  };
  let lastProgress = 0;
  let inProcessing = false;
  let task: DatasetTask;
  try {
    task = (row.task === 'semantic-segment' ? 'segment' : row.task) as DatasetTask;
    inProcessing = true;
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
        pending.push({
          id,
          imageId: id,
          revFrom: seq,
          // Content address of the bytes (ADR 0037): edits and copies dedupe by it, diffs compare it.
          sha256: createHash('sha256').update(img.data).digest('hex'),
          bytes: img.data.length,
          datasetId: row.id,
          split: img.split,
          name: img.name,
          entryName: img.entryName,
          width: img.width,
          height: img.height,
          format: img.format,
          // Class names come from the yaml, where "\0" is a valid escape: stored escaped.
          className: img.className === null ? null : storableText(img.className, 1000),
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
    inProcessing = false;
    await flush();
    const now = ctx.clock.now();
    // A classification archive sets the task whatever the dataset was created with (ADR 0029).
    const picked = result.task !== task ? { task: result.task } : {};
    if (result.ok) {
      const updated = await helpers.fenced((tx) =>
        datasetsRepository.update(tx, row.id, {
          ...picked,
          status: 'Ready',
          processedAt: now,
          failedAt: null,
          error: null,
          stats: storableJson(result.stats),
          classes: result.stats ? storableJson(result.stats.summary.classes) : null,
          report: storableJson(result.report),
          updatedAt: now,
        }),
      );
      await emitOutcome(ctx, updated!);
    } else {
      await dropBlobs(ctx, await helpers.fenced((tx) => retire(tx, row.id)));
      await ctx.blobs.deletePrefix(thumbPrefix);
      const first = result.fatal ?? result.report.errors[0];
      const updated = await helpers.fenced((tx) =>
        datasetsRepository.update(tx, row.id, {
          ...picked,
          status: 'Failed',
          failedAt: now,
          processedAt: null,
          error: first ? storableText(failureText(first)) : ErrorCode.Unknown,
          stats: null,
          // Entry names and messages quote the archive: NUL and other controls cannot go into jsonb as they are.
          report: storableJson(result.report),
          updatedAt: now,
        }),
      );
      await emitOutcome(ctx, updated!);
    }
  } catch (err) {
    // Lost the lease: the images belong to the attempt that holds the job now.
    if (isLeaseLost(err)) throw err;
    await helpers
      .fenced((tx) => retire(tx, row.id))
      .then((keys) => dropBlobs(ctx, keys))
      .catch(() => undefined);
    // The queue stores the error and, on the last attempt, calls onFailed (dataset Failed). A failure
    // of the processing code itself on this archive (not I/O, not the database) would fail the same
    // way again: no retry for it.
    if (inProcessing && !(err as NodeJS.ErrnoException).code) throw new PermanentJobError((err as Error).message ?? String(err));
    throw err;
  } finally {
    if (tmp) fs.rmSync(tmp, { force: true });
  }
}

/** The dataset's one-line error: code, the file at fault (escaped) unless the message names it, message. */
function failureText(entry: { code: string; message: string; file?: string }): string {
  const file = entry.file && !entry.message.includes(entry.file) ? `${entry.file}: ` : '';
  return `${entry.code}: ${file}${entry.message}`;
}

type Helpers = Parameters<Parameters<AppContext['jobs']['register']>[1]>[1];

function reportProgress(ctx: AppContext, helpers: Helpers, id: string, phase: string, done: number, total: number) {
  void helpers.progress({ phase, done, total }).catch(() => undefined);
  void ctx.events.emit('dataset.progress', null, { datasetId: id, phase, done, total });
}

/** Processing ended: the dataset's pages hear its new status, webhooks (ADR 0016) what receivers learn. */
function emitOutcome(ctx: AppContext, row: { id: string; userId: string; name: string; slug: string; task: string; status: string; error: string | null }) {
  const dataset = { id: row.id, name: row.name, slug: row.slug, task: row.task, status: row.status };
  return row.status === 'Ready'
    ? ctx.events.emit('dataset.processed', row.userId, { dataset })
    : ctx.events.emit('dataset.failed', row.userId, { dataset, error: row.error });
}
