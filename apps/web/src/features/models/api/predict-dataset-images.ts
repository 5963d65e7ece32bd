import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DatasetImage, DatasetImagesPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** A page of a dataset's images to try the model on (validation split first: images it did not train on). */
export const getPreviewImages = (datasetId: string, split: 'val' | 'test' | 'train', signal?: AbortSignal) =>
  api.get<DatasetImagesPage>(`/v1/datasets/${encodeURIComponent(datasetId)}/images?split=${split}&limit=24`, signal);

export const previewImagesQueryOptions = (datasetId: string, split: 'val' | 'test' | 'train') =>
  queryOptions({ queryKey: ['training', 'dataset-images', datasetId, split] as const, queryFn: ({ signal }) => getPreviewImages(datasetId, split, signal) });

export const usePreviewImages = (datasetId: string | null | undefined, split: 'val' | 'test' | 'train', enabled = true) =>
  useQuery({ ...previewImagesQueryOptions(datasetId ?? '', split), enabled: Boolean(datasetId) && enabled, retry: false });

/** The image bytes behind a dataset image's signed URL, as a file to send to the model. */
export async function fetchPreviewImage(image: DatasetImage, signal?: AbortSignal): Promise<File> {
  const response = await fetch(image.url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`image ${response.status}`);
  const blob = await response.blob();
  return new File([blob], image.name, { type: blob.type || 'image/png' });
}
