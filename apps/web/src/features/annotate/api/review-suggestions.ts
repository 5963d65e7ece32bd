import { api } from '../../../lib/api-client';

/** `POST /v1/datasets/:id/suggestions/accept|reject` (ADR 0039): of some images, or all of them; accepting writes labels (revision + 1). */
export const reviewSuggestions = (datasetId: string, action: 'accept' | 'reject', target: { imageIds: string[] } | { all: true }) =>
  api.post<unknown>(`/v1/datasets/${encodeURIComponent(datasetId)}/suggestions/${action}`, target);
