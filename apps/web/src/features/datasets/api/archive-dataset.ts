import type { Dataset } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** POST /v1/datasets/{id}/archive or /unarchive (spec §4 dates.archived). */
export const setDatasetArchived = (id: string, archived: boolean) =>
  api.post<Dataset>(`/v1/datasets/${encodeURIComponent(id)}/${archived ? 'archive' : 'unarchive'}`);
