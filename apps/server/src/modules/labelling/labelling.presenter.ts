import type { PrelabelJob, Suggestion } from '@sightline/contracts';
import type { PrelabelJobRow, SuggestionRow } from './labelling.repository.js';

export function presentJob(row: PrelabelJobRow, modelName: string): PrelabelJob {
  return {
    id: row.id,
    datasetId: row.datasetId,
    model: { id: row.modelId, name: modelName },
    split: row.split,
    status: row.status,
    conf: row.conf,
    classMap: row.classMap,
    done: row.done,
    total: row.total,
    suggested: row.suggested,
    boxes: row.boxes,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentSuggestion(row: SuggestionRow): Suggestion {
  return {
    id: row.id,
    imageId: row.imageId,
    jobId: row.jobId,
    modelId: row.modelId,
    labels: row.labels,
    conf: row.conf,
    className: row.className,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}
