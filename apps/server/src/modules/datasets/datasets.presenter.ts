import type { Abilities, Dataset } from '@sightline/contracts';
import type { DatasetRow } from './datasets.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentDataset(
  row: DatasetRow,
  extra: {
    abilities: Abilities;
    username: string;
    previews: string[];
    /** the cover image's signed URL, when there is one */ imageUrl: string | null;
    progress?: { phase: string; done: number; total: number } | null;
  },
): Dataset {
  const stats = row.stats;
  const report = row.report;
  return {
    id: row.id,
    slug: row.slug,
    dates: {
      created: row.createdAt.toISOString(),
      updated: row.updatedAt.toISOString(),
      archived: iso(row.archivedAt),
      deleted: iso(row.deletedAt),
      uploaded: iso(row.uploadedAt),
      processed: iso(row.processedAt),
      failed: iso(row.failedAt),
    },
    owner: { uid: row.userId, username: extra.username },
    meta: { name: row.name, description: row.description, privacy: row.privacy },
    status: row.status,
    schemaVersion: 2,
    provider: row.provider === 'roboflow' ? 'roboflow' : 'hub',
    task: row.task,
    storage: { path: row.storageKey, filename: row.filename, bytes: row.bytes },
    image: extra.imageUrl ?? extra.previews[0] ?? null,
    stats: stats?.summary ?? null,
    splitStats: stats?.hub ?? null,
    uploadJob: row.uploadJob,
    error: row.error,
    report: report ? { errorCount: report.errorCount ?? 0, warningCount: report.warningCount ?? 0 } : null,
    team: { id: row.teamId, name: null },
    roboflow: row.roboflow ? { type: String(row.roboflow.type ?? 'workspace'), totalVersions: Number(row.roboflow.totalVersions ?? 0) } : null,
    previews: extra.previews,
    progress: extra.progress ?? null,
    abilities: extra.abilities,
  };
}
