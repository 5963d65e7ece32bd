import type { Dataset } from '@sightline/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/datasets/{id}/process with an empty body (spec §7): Loading, or Retrying after a failure. */
export const processDataset = (id: string) => request<Dataset>(`/v1/datasets/${encodeURIComponent(id)}/process`, { method: 'POST' });
