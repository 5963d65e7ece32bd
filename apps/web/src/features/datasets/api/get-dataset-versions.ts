import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DatasetVersion, DatasetVersionDetail } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { DatasetVersion, DatasetVersionDetail };

export const datasetVersionsQueryKey = (id: string) => ['datasets', id, 'versions'] as const;

/** GET /v1/datasets/{id}/versions (ADR 0038): newest first. */
export const getDatasetVersions = (id: string, signal?: AbortSignal) => api.get<DatasetVersion[]>(`/v1/datasets/${encodeURIComponent(id)}/versions`, signal);

export const useDatasetVersions = (id: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: datasetVersionsQueryKey(id), queryFn: ({ signal }) => getDatasetVersions(id, signal), enabled }));

/** GET /v1/datasets/{id}/versions/{number}: one version with the models trained on it that the caller may read. */
export const getDatasetVersion = (id: string, number: number, signal?: AbortSignal) =>
  api.get<DatasetVersionDetail>(`/v1/datasets/${encodeURIComponent(id)}/versions/${number}`, signal);

export const useDatasetVersion = (id: string, number: number | null) =>
  useQuery({
    queryKey: [...datasetVersionsQueryKey(id), number] as const,
    queryFn: ({ signal }) => getDatasetVersion(id, number!, signal),
    enabled: number !== null,
  });

/** The deterministic YOLO zip of a version (same content, same bytes), streamed by the server with the session cookie. */
export const datasetVersionDownloadUrl = (id: string, number: number) => `/v1/datasets/${encodeURIComponent(id)}/versions/${number}/download`;
