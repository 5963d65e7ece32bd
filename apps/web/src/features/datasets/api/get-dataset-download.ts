import { api } from '../../../lib/api-client';

/** GET /v1/datasets/{id}/download: a signed URL of the archive, valid for an hour. */
export const getDatasetDownload = (id: string) => api.get<{ url: string }>(`/v1/datasets/${encodeURIComponent(id)}/download`);
