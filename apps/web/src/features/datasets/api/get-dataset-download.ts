import { api } from '../../../lib/api-client';
import type { SignedUrl } from '@sightline/contracts';

/** GET /v1/datasets/{id}/download: a signed URL of the archive, valid for an hour. */
export const getDatasetDownload = (id: string) => api.get<SignedUrl>(`/v1/datasets/${encodeURIComponent(id)}/download`);
