import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClassCounts } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const classCountsQueryKey = (datasetId: string) => ['datasets', datasetId, 'class-counts'] as const;

/** `GET /v1/datasets/:id/class-counts` (ADR 0039): label rows per class name, images and unlabelled images of the working state. */
export const useClassCounts = (datasetId: string) =>
  useQuery(
    queryOptions({
      queryKey: classCountsQueryKey(datasetId),
      queryFn: ({ signal }) => api.get<ClassCounts>(`/v1/datasets/${encodeURIComponent(datasetId)}/class-counts`, signal),
      staleTime: 5_000,
    }),
  );
