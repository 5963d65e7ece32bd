import { api } from '../../../lib/api-client';
import type { ImageLabels } from '@sightline/contracts';

/**
 * `PUT /v1/datasets/:id/images/:imageId/labels` with the revision the labels were edited from; a newer revision on
 * the server answers 409 (LABELS_CONFLICT), a refused row 422 naming it.
 */
export const putImageLabels = (datasetId: string, imageId: string, body: { revision: number; labels: number[][]; className: string | null }) =>
  api.put<ImageLabels>(`/v1/datasets/${encodeURIComponent(datasetId)}/images/${encodeURIComponent(imageId)}/labels`, {
    revision: body.revision,
    labels: body.labels,
    ...(body.className !== null ? { className: body.className } : {}),
  });
