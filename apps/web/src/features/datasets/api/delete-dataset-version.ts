import type { Ok } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** DELETE /v1/datasets/{id}/versions/{number}: to the trash (restored from there). */
export const deleteDatasetVersion = (id: string, number: number) => api.delete<Ok>(`/v1/datasets/${encodeURIComponent(id)}/versions/${number}`);
