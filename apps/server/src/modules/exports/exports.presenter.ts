import type { ExportFormat, ExportOptions, ModelExport } from '@sightline/contracts';
import type { ModelExportRow } from '../agents/agents.service.js';

export function presentExport(row: ModelExportRow, canEdit: boolean): ModelExport {
  return {
    id: row.id,
    modelId: row.modelId,
    format: row.format as ExportFormat,
    options: row.options as ExportOptions,
    status: row.status,
    auto: row.auto,
    fileName: row.fileName,
    bytes: row.bytes,
    error: row.error,
    attempts: row.attempts,
    jobId: row.jobId,
    created: row.createdAt.toISOString(),
    finished: row.finishedAt ? row.finishedAt.toISOString() : null,
    downloadUrl: row.status === 'succeeded' && row.blobKey ? `/v1/models/${row.modelId}/exports/${row.id}/download` : null,
    canRetry: canEdit && (row.status === 'failed' || row.status === 'cancelled'),
  };
}
