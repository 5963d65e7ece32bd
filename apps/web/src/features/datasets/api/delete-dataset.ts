import { api } from '../../../lib/api-client';
import type { Ok } from '@sightline/contracts';

/** DELETE /v1/datasets/{id}: soft delete (to the trash); `hard` purges a dataset that never got going. */
export const deleteDataset = (id: string, options: { hard?: boolean } = {}) =>
  api.delete<Ok>(`/v1/datasets/${encodeURIComponent(id)}${options.hard ? '?hard=true' : ''}`);
