import type { EvalResult, Evaluation } from '@sightline/contracts';
import type { EvaluationRow } from './evaluation.repository.js';

/**
 * One evaluation as the API answers it. The stored result is `{ names, metrics }`: the model's class
 * names when it ran and the metrics engine's result. `classNames` are the model's, by model class id (the result's class space).
 */
export function presentEvaluation(row: EvaluationRow, extra: { datasetName: string; classNames: string[]; reused: boolean; withResult?: boolean }): Evaluation {
  const resultNames = row.result?.names;
  const metrics = row.status === 'completed' ? ((row.result?.metrics as EvalResult | undefined) ?? null) : null;
  return {
    id: row.id,
    modelId: row.modelId,
    dataset: { id: row.datasetId, name: extra.datasetName },
    split: row.split,
    task: row.task,
    status: row.status,
    progress: { done: row.done, total: row.total },
    error: row.error,
    classMap: row.classMap ?? null,
    classNames: Array.isArray(resultNames) ? (resultNames as string[]) : extra.classNames,
    result: extra.withResult === false ? null : metrics,
    headline: headlineOf(metrics),
    reused: extra.reused,
    created: row.createdAt.toISOString(),
    started: row.startedAt?.toISOString() ?? null,
    finished: row.finishedAt?.toISOString() ?? null,
  };
}

function headlineOf(metrics: EvalResult | null): Evaluation['headline'] {
  if (!metrics) return null;
  return metrics.task === 'classify' ? { name: 'top1', value: metrics.top1 } : { name: 'mAP50', value: metrics.box.mAP50 };
}
