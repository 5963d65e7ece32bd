import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ImageLabels } from '@sightline/contracts';

/** `GET /v1/datasets/:id/images/:imageId/labels`: one image's labels with the revision a save must name. */
export const getImageLabels = (datasetId: string, imageId: string, signal?: AbortSignal) =>
  api.get<ImageLabels>(`/v1/datasets/${encodeURIComponent(datasetId)}/images/${encodeURIComponent(imageId)}/labels`, signal);

export const imageLabelsQueryKey = (datasetId: string, imageId: string) => ['datasets', datasetId, 'labels', imageId] as const;

export const imageLabelsQueryOptions = (datasetId: string, imageId: string) =>
  queryOptions({ queryKey: imageLabelsQueryKey(datasetId, imageId), queryFn: ({ signal }) => getImageLabels(datasetId, imageId, signal), staleTime: 30_000 });

export const useImageLabels = (datasetId: string, imageId: string | undefined) =>
  useQuery({ ...imageLabelsQueryOptions(datasetId, imageId ?? ''), enabled: !!imageId });
