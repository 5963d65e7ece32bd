import { ErrorCode, EVALUATION_MISTAKES_PER_CLASS, type EvalResult, type EvaluationBox } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { PermanentJobError, type JobHelpers } from '../../platform/jobs/job-queue.js';
import { readImageBytes } from '../datasets/datasets.image-source.js';
import { readableDataset } from '../datasets/datasets.service.js';
import { onnxPathFor } from '../inference/inference.service.js';
import type { InferenceEngine, Prediction } from '../inference/index.js';
import { readableModel } from '../models/models.service.js';
import { iou, labelToBox, mapClasses, TopByConfidence, type Task } from './evaluation.classes.js';
import { evaluationRepository as repo, type EvalImageRow, type EvaluationRow, type MistakeRow } from './evaluation.repository.js';
import { datasetClassNames, EVALUATION_QUEUE, publishProgress, publishStatus } from './evaluation.service.js';
import { ClassificationMetrics, DetectionMetrics, evalPredictOptions, toEvalPredictions, type EvalBox } from './metrics/index.js';

/** Images in flight: one decoding and letterboxing while the other runs (the engine runs one `session.run` per model at a time). */
const IN_FLIGHT = 2;
/** Progress is written (and a cancel looked for) at most this often. */
const PROGRESS_MS = 400;

class Cancelled extends Error {}

type Mistake = Omit<MistakeRow, 'evaluationId' | 'rank' | 'kind' | 'classId'>;

/** Registers the evaluation job on the app's queue; `engine` is the evaluations' own inference engine. */
export function registerEvaluationJob(ctx: AppContext, engine: InferenceEngine) {
  ctx.jobs.register(EVALUATION_QUEUE, (job, helpers) => runEvaluation(ctx, engine, String(job.payload.evaluationId), helpers), {
    onFailed: async (job, error) => {
      const row = await repo.updateActive(ctx.db, String(job.payload.evaluationId), { status: 'failed', error, finishedAt: ctx.clock.now() });
      if (row) await publishStatus(ctx, row);
    },
  });
}

export async function runEvaluation(ctx: AppContext, engine: InferenceEngine, id: string, helpers?: Pick<JobHelpers, 'progress' | 'signal'>) {
  let row = await repo.byId(ctx.db, id);
  if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
  if (row.cancelRequestedAt) return void (await end(ctx, row.id, { status: 'cancelled' }));
  try {
    // The one who asked must still read both (a privacy change or the trash since stops it).
    const model = await readableModel(ctx, row.userId, row.modelId);
    const dataset = await readableDataset(ctx, row.userId, row.datasetId);
    if (!dataset.storageKey) throw new AppError(409, ErrorCode.DatasetNotReady, 'The dataset has no stored images.');
    const modelPath = await onnxPathFor(ctx, model);
    const description = await engine.load(modelPath);
    const meta = description.metadata;
    if (!meta) throw new AppError(422, ErrorCode.UnsupportedModel, 'The model has no ultralytics metadata (task, names).');
    if (meta.task === 'obb') throw new AppError(422, ErrorCode.UnsupportedModel, 'Oriented-box (obb) models cannot be evaluated yet.');
    const task = meta.task as Task;
    const classMap = mapClasses(datasetClassNames(dataset), meta.names);
    if (classMap.pairs.length === 0)
      throw new AppError(422, ErrorCode.NoCommonClasses, 'The dataset and the model have no class name in common, so nothing can be scored.');
    const toModel = new Map(classMap.pairs.map((p) => [p.datasetClass, p.modelClass]));
    const classIdOfName = new Map(datasetClassNames(dataset).map((n, i) => [n, i]));
    const scoredModelClasses = new Set(classMap.pairs.map((p) => p.modelClass));

    const images = await repo.splitImages(ctx.db, dataset.id, row.split);
    row = (await repo.updateActive(ctx.db, row.id, {
      status: 'running',
      startedAt: ctx.clock.now(),
      done: 0,
      total: images.length,
      task,
      classMap,
      error: null,
    }))!;
    if (!row) return;
    await publishStatus(ctx, row);
    await repo.deleteMistakes(ctx.db, row.id); // a second attempt starts over

    // ultralytics val's NMS, letterbox and masks (ADR 0034); classify runs as predict does.
    const predictOptions = task === 'classify' ? {} : evalPredictOptions(task);
    const kpt: [number, number] = meta.kptShape ?? [17, 3];
    const detection = task === 'classify' ? null : new DetectionMetrics({ task, classNames: meta.names, kptShape: kpt });
    /** Pose label keypoints as the metrics take them: x, y (and visibility when the model has it) per keypoint. */
    const keypointsOf = (flat: number[]) => {
      const out: number[] = [];
      for (let i = 0; i + 2 < flat.length && out.length < kpt[0] * kpt[1]; i += 3)
        out.push(flat[i]!, flat[i + 1]!, ...(kpt[1] === 3 ? [flat[i + 2] ?? 2] : []));
      return out;
    };
    const classification = task === 'classify' ? new ClassificationMetrics({ classNames: meta.names }) : null;
    const mistakes = new TopByConfidence<Mistake & { key: string }>(EVALUATION_MISTAKES_PER_CLASS);
    let skippedLabels = 0;

    const score = (img: EvalImageRow, pred: Prediction) => {
      const width = pred.imageSize.width;
      const height = pred.imageSize.height;
      if (classification) {
        const datasetClass = img.className !== null ? classIdOfName.get(img.className) : undefined;
        const label = datasetClass !== undefined ? toModel.get(datasetClass) : undefined;
        if (label === undefined) return void (skippedLabels += 1);
        const probs = pred.probs ?? [];
        const out = classification.addImage({ imageId: img.id, labelClassId: label, probabilities: probs });
        if (!out.correct) {
          const confidence = probs[out.predictedClassId] ?? 0;
          const whole: [number, number, number, number] = [0, 0, width, height];
          mistakes.add(`wrong:${label}`, {
            key: `wrong:${label}`,
            imageId: img.id,
            confidence,
            prediction: { classId: out.predictedClassId, box: whole, confidence },
            label: { classId: label, box: whole },
          });
        }
        return;
      }
      const labels: EvalBox[] = [];
      for (const rowLabel of img.labels) {
        const b = labelToBox(rowLabel, task, width, height);
        if (!b) continue;
        const m = toModel.get(b.classId);
        if (m === undefined) {
          skippedLabels += 1;
          continue;
        }
        labels.push({ ...b, classId: m, ...(b.keypoints ? { keypoints: keypointsOf(b.keypoints) } : {}) });
      }
      // The metrics engine's reading of the prediction (masks on val's prototype grid); unmapped model classes are left out.
      const converted = toEvalPredictions(pred);
      const predictions = converted.predictions.filter((p) => scoredModelClasses.has(p.classId));
      const outcome = detection!.addImage({
        imageId: img.id,
        width,
        height,
        labels,
        predictions,
        ...(converted.maskGrid ? { maskGrid: converted.maskGrid } : {}),
      });
      const slim = (b: EvalBox): EvaluationBox => ({
        classId: b.classId,
        box: b.box,
        ...(b.confidence !== undefined ? { confidence: b.confidence } : {}),
        ...(b.polygon ? { polygon: b.polygon.map((v) => Math.round(v * 10) / 10) } : {}),
      });
      for (const p of outcome.falsePositives)
        mistakes.add(`fp:${p.classId}`, { key: `fp:${p.classId}`, imageId: img.id, confidence: p.confidence ?? 0, prediction: slim(p), label: null });
      for (const l of outcome.falseNegatives) {
        // How close the model came: the best same-class prediction over the missed label.
        let best = 0;
        for (const p of predictions) if (p.classId === l.classId && (p.confidence ?? 0) > best && iou(p.box, l.box) >= 0.45) best = p.confidence ?? 0;
        mistakes.add(`fn:${l.classId}`, { key: `fn:${l.classId}`, imageId: img.id, confidence: best, prediction: null, label: slim(l) });
      }
      for (const w of outcome.wrongClass)
        mistakes.add(`wrong:${w.label.classId}`, {
          key: `wrong:${w.label.classId}`,
          imageId: img.id,
          confidence: w.prediction.confidence ?? 0,
          prediction: slim(w.prediction),
          label: slim(w.label),
        });
    };

    let next = 0;
    let done = 0;
    let lastWrite = Date.now();
    let writing: Promise<void> | null = null;
    const checkpoint = async () => {
      const now = Date.now();
      if (now - lastWrite < PROGRESS_MS && done < images.length) return;
      lastWrite = now;
      await writing;
      const updated = await repo.updateActive(ctx.db, id, { done });
      if (!updated || updated.cancelRequestedAt) throw new Cancelled();
      writing = Promise.all([helpers?.progress({ phase: 'evaluate', done, total: images.length }), publishProgress(ctx, updated)]).then(() => undefined);
    };
    let stopped = false;
    const worker = async () => {
      try {
        while (!stopped && next < images.length) {
          if (helpers?.signal.aborted) throw new Cancelled();
          const img = images[next++]!;
          const bytes = await readImageBytes(ctx, dataset, img);
          const pred = await engine.predict(modelPath, bytes, predictOptions);
          if (stopped) return;
          score(img, pred);
          done += 1;
          await checkpoint();
        }
      } catch (err) {
        stopped = true; // the other worker ends after its image
        throw err;
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, images.length) }, worker));
    await writing;

    const metrics = detection ? detection.finish() : classification!.finish();
    const rows: MistakeRow[] = [];
    for (const [key, list] of mistakes.entries()) {
      const [kind, cls] = key.split(':') as ['fp' | 'fn' | 'wrong', string];
      list.forEach((m, rank) =>
        rows.push({
          evaluationId: id,
          kind,
          classId: Number(cls),
          rank,
          imageId: m.imageId,
          confidence: m.confidence,
          prediction: m.prediction,
          label: m.label,
        }),
      );
    }
    await repo.insertMistakes(ctx.db, rows);
    const finished = await end(ctx, id, {
      status: 'completed',
      done,
      classMap: { ...classMap, skippedLabels },
      result: { names: meta.names, metrics: metrics as unknown as Record<string, unknown> },
    });
    if (finished) await announce(ctx, finished, model.userId, metrics);
  } catch (err) {
    if (err instanceof Cancelled) return void (await end(ctx, id, { status: 'cancelled' }));
    if (err instanceof AppError) {
      // The input is at fault (no common class, unsupported model, access gone): running again cannot help.
      await end(ctx, id, { status: 'failed', error: err.message });
      throw new PermanentJobError(err.message);
    }
    throw err;
  }
}

async function end(ctx: AppContext, id: string, patch: Partial<EvaluationRow>) {
  const row = await repo.updateActive(ctx.db, id, { ...patch, finishedAt: ctx.clock.now() });
  if (row) await publishStatus(ctx, row);
  return row;
}

/** Webhook (`model.evaluated`) to the model's owner, with the headline numbers. */
async function announce(ctx: AppContext, row: EvaluationRow, ownerId: string, metrics: EvalResult) {
  const overall: Record<string, number> =
    metrics.task === 'classify'
      ? { top1: metrics.top1, top5: metrics.top5 }
      : { precision: metrics.box.precision, recall: metrics.box.recall, mAP50: metrics.box.mAP50, mAP50_95: metrics.box.mAP50_95 };
  await ctx.events.emit('model.evaluated', ownerId, {
    evaluation: { id: row.id, split: row.split, task: row.task, images: row.total, overall },
    model: { id: row.modelId },
    dataset: { id: row.datasetId },
  });
}
