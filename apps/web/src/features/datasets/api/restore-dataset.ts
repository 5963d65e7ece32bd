import type { Dataset } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** POST /v1/datasets/{id}/restore: back from the trash. */
export const restoreDataset = (id: string) => api.post<Dataset>(`/v1/datasets/${encodeURIComponent(id)}/restore`);
