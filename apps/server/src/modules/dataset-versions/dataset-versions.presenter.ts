import type { DatasetVersion } from '@sightline/contracts';
import type { VersionRow } from './dataset-versions.repository.js';

/** A version row as the API answers it (ADR 0038). */
export function presentVersion(row: VersionRow, extra: { username: string | null; models: number }): DatasetVersion {
  const splits = (row.stats as { splits?: Partial<DatasetVersion['splits']> } | null)?.splits ?? {};
  return {
    id: row.id,
    datasetId: row.datasetId,
    number: row.number,
    note: row.note,
    classes: row.classes,
    images: row.images,
    splits: { train: splits.train ?? 0, val: splits.val ?? 0, test: splits.test ?? 0 },
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy ? { id: row.createdBy, username: extra.username } : null,
    models: extra.models,
  };
}
