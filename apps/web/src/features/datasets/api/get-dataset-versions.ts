import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * A saved version of a dataset (ADR 0038): frozen images, labels, splits and class list at an edit sequence, with its
 * note. `models` are the models trained on it (given by `GET .../versions/:number`, and by the list where the server
 * adds them).
 */
export interface DatasetVersion {
  number: number;
  note: string;
  images: number;
  classes: string[];
  created: string;
  author: { id: string | null; name: string | null } | null;
  stats?: { train?: number; val?: number; test?: number } | null;
  models?: VersionModel[];
}
export interface VersionModel {
  id: string;
  name: string;
}

export const datasetVersionsQueryKey = (id: string) => ['datasets', id, 'versions'] as const;

/** GET /v1/datasets/{id}/versions: newest first. */
export const getDatasetVersions = (id: string, signal?: AbortSignal) => api.get<DatasetVersion[]>(`/v1/datasets/${encodeURIComponent(id)}/versions`, signal);

export const useDatasetVersions = (id: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: datasetVersionsQueryKey(id), queryFn: ({ signal }) => getDatasetVersions(id, signal), enabled }));

/** GET /v1/datasets/{id}/versions/{number}: one version with the models trained on it. */
export const getDatasetVersion = (id: string, number: number, signal?: AbortSignal) =>
  api.get<DatasetVersion>(`/v1/datasets/${encodeURIComponent(id)}/versions/${number}`, signal);

export const useDatasetVersion = (id: string, number: number | null) =>
  useQuery({
    queryKey: [...datasetVersionsQueryKey(id), number] as const,
    queryFn: ({ signal }) => getDatasetVersion(id, number!, signal),
    enabled: number !== null,
  });

/** The deterministic YOLO zip of a version (same content, same bytes), streamed by the server with the session cookie. */
export const datasetVersionDownloadUrl = (id: string, number: number) => `/v1/datasets/${encodeURIComponent(id)}/versions/${number}/download`;
