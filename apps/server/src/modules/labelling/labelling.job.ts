import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { PermanentJobError, type JobHelpers } from '../../platform/jobs/job-queue.js';
import { readImageBytes } from '../datasets/datasets.image-source.js';
import { toAppError } from '../inference/inference.service.js';
import { loadModelForInference } from '../inference/inference.service.js';
import type { InferenceEngine } from '../inference/index.js';
import { predictionToLabels } from './labelling.classes.js';
import { labellingRepository as repo, type LabelImageRow, type PrelabelJobRow } from './labelling.repository.js';
import { classNamesOf, labelableDataset, PRELABEL_QUEUE, publishJob } from './labelling.service.js';

/** Images in flight: one decoding while the other runs (the engine runs one `session.run` per model at a time). */
const IN_FLIGHT = 2;
/** Suggestions are written, progress published and a cancel looked for at most this often (or every BATCH images). */
const PROGRESS_MS = 400;
const BATCH = 50;
/** The predict API's defaults (inference.params.ts), so a suggestion is what `/v1/predict` answers for the image. */
const PREDICT = { imgsz: 640, iou: 0.45 };

class Cancelled extends Error {}

export function registerPrelabelJob(ctx: AppContext, engine: InferenceEngine) {
  ctx.jobs.register(PRELABEL_QUEUE, (job, helpers) => runPrelabel(ctx, engine, String(job.payload.jobId), helpers), {
    onFailed: async (job, error) => {
      const row = await repo.updateActiveJob(ctx.db, String(job.payload.jobId), { status: 'failed', error, finishedAt: ctx.clock.now() });
      if (row) await publishJob(ctx, row);
    },
  });
}

/**
 * Runs the model over the job's images (out of the dataset's archive) at the predict API's settings
 * and the job's confidence, turns each prediction into label rows in the dataset's classes, and keeps
 * them as pending suggestions, in batches with progress; a cancel stops it at the next batch.
 */
export async function runPrelabel(ctx: AppContext, engine: InferenceEngine, id: string, helpers?: Pick<JobHelpers, 'progress' | 'signal'>) {
  let row = await repo.jobById(ctx.db, id);
  if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
  if (row.cancelRequestedAt) return void (await end(ctx, row.id, { status: 'cancelled' }));
  try {
    // The one who asked must still be allowed to label the dataset and run the model.
    const dataset = await labelableDataset(ctx, row.userId, row.datasetId);
    if (!dataset.storageKey) throw new AppError(409, ErrorCode.DatasetNotReady, 'The dataset has no stored images.');
    const { modelPath } = await loadModelForInference(ctx, row.userId, row.modelId);
    await engine.load(modelPath).catch((err: unknown) => {
      throw toAppError(err);
    });
    const names = classNamesOf(dataset);
    const images = await repo.imagesToLabel(ctx.db, dataset.id, { split: row.split, imageIds: row.imageIds });
    row = await repo.updateActiveJob(ctx.db, row.id, { status: 'running', startedAt: ctx.clock.now(), done: 0, total: images.length, suggested: 0, boxes: 0 });
    if (!row) return;
    await publishJob(ctx, row);
    const job: PrelabelJobRow = row;

    let next = 0;
    let done = 0;
    let suggested = 0;
    let boxes = 0;
    let buffer: Array<Parameters<typeof repo.replaceSuggestions>[1][number]> = [];
    let lastWrite = Date.now();
    let writing: Promise<void> = Promise.resolve();
    const flush = async (force: boolean) => {
      if (!force && buffer.length < BATCH && Date.now() - lastWrite < PROGRESS_MS) return;
      lastWrite = Date.now();
      const batch = buffer;
      buffer = [];
      const counts = { done, suggested, boxes };
      writing = writing.then(async () => {
        await repo.replaceSuggestions(ctx.db, batch);
        const updated = await repo.updateActiveJob(ctx.db, id, counts);
        if (!updated || updated.cancelRequestedAt) throw new Cancelled();
        await Promise.all([helpers?.progress({ phase: 'prelabel', done: counts.done, total: images.length }), publishJob(ctx, updated)]);
      });
      await writing;
    };
    let stopped = false;
    const label = async (img: LabelImageRow) => {
      const bytes = await readImageBytes(ctx, dataset, img);
      const pred = await engine.predict(modelPath, bytes, { ...PREDICT, conf: job.conf });
      const out = predictionToLabels(pred, dataset.task, job.classMap, names, job.conf);
      if (out.rows.length || out.className) {
        suggested += 1;
        boxes += out.rows.length + (out.className ? 1 : 0);
        buffer.push({
          id: newId(),
          datasetId: dataset.id,
          imageId: img.id,
          jobId: job.id,
          modelId: job.modelId,
          labels: out.rows,
          conf: out.conf,
          className: out.className,
          status: 'pending',
          createdAt: ctx.clock.now(),
        });
      }
    };
    const worker = async () => {
      try {
        while (!stopped && next < images.length) {
          if (helpers?.signal.aborted) throw new Cancelled();
          const img = images[next++]!;
          try {
            await label(img);
          } catch (err) {
            // An image the engine cannot read gets no proposal; the others go on.
            if ((toAppError(err) as AppError).code !== ErrorCode.InvalidImage) throw err;
          }
          done += 1;
          await flush(false);
        }
      } catch (err) {
        stopped = true;
        throw err;
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, images.length) }, worker));
    await flush(true);
    const finished = await end(ctx, id, { status: 'completed', done, suggested, boxes });
    if (finished) await publishJob(ctx, finished);
  } catch (err) {
    if (err instanceof Cancelled) return void (await end(ctx, id, { status: 'cancelled' }));
    const app = toAppError(err);
    if (app instanceof AppError && app.statusCode < 500) {
      // The input is at fault (access gone, unsupported model): running again cannot help.
      await end(ctx, id, { status: 'failed', error: app.message });
      throw new PermanentJobError(app.message);
    }
    throw err;
  }
}

async function end(ctx: AppContext, id: string, patch: Partial<PrelabelJobRow>) {
  const row = await repo.updateActiveJob(ctx.db, id, { ...patch, finishedAt: ctx.clock.now() });
  if (row) await publishJob(ctx, row);
  return row;
}
