import { api } from '../../../lib/api-client';
import type { DatasetVersion } from './get-dataset-versions';

/** POST /v1/datasets/{id}/versions: freezes the working state as the next version, with a note. */
export const saveDatasetVersion = (id: string, note: string) => api.post<DatasetVersion>(`/v1/datasets/${encodeURIComponent(id)}/versions`, { note });
